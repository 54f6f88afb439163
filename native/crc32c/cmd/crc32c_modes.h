/* The modes of `portkit-target crc32c` (one file each) and the options
 * cmd_crc32c.c parses for them. */
#ifndef PK_CRC32C_MODES_H
#define PK_CRC32C_MODES_H

#include <stdbool.h>
#include <stddef.h>

#define PK_CRC32C_CMD "crc32c"
#define PK_CRC32C_SCHEMA "portkit.crc32c/1"
#define PK_CRC32C_SCHEMA_BENCH "portkit.crc32c-bench/1"
#define PK_CRC32C_MAX_SIZES 32

typedef struct pk_crc32c_options {
    bool json, bench;
    const char *check; /* --check LIST */
    size_t sizes[PK_CRC32C_MAX_SIZES];
    size_t size_count;
    double seconds;
} pk_crc32c_options;

/* Each returns an exit code (pk_cli.h). */
/* The CRC32C of each of paths[0..count) ("-" or none: stdin), like sha256sum. */
int pk_crc32c_sum_files(const pk_crc32c_options *opt, int count, char **paths);
/* --check: verifies the lines of opt->check, like sha256sum -c. */
int pk_crc32c_check_list(const pk_crc32c_options *opt);
/* --bench: throughput of every implementation this CPU can run. */
int pk_crc32c_run_bench(const pk_crc32c_options *opt);

#endif
