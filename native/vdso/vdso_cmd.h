/* The modes of `portkit-target vdso` (one file each) and what they share:
 * the usage text and getopt's errors as one line with exit 2. */
#ifndef PK_VDSO_CMD_H
#define PK_VDSO_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Each gets argv[0] = its mode name (or "vdso" for the default list mode)
 * and returns an exit code (pk_cli.h). */
int pk_vdso_list(int argc, char **argv);
int pk_vdso_verify(int argc, char **argv);
int pk_vdso_bench(int argc, char **argv);

/* Returned by option parsers when the mode goes on (anything else is the
 * exit code: --help printed, or a usage error reported). */
#define PK_VDSO_CONTINUE (-1)

void pk_vdso_usage(FILE *out);
/* Prepares getopt_long for a parse that reports its own errors. */
void pk_vdso_getopt_start(void);
/* One line for what getopt_long returned as '?' or ':'; returns PK_EXIT_USAGE. */
int pk_vdso_option_error(int opt, char **argv);
/* One line for operands left after the options; PK_VDSO_CONTINUE when none. */
int pk_vdso_no_operands(int argc, char **argv);
/* A count option in [min, max]; PK_VDSO_CONTINUE or PK_EXIT_USAGE. */
int pk_vdso_count_option(const char *option, const char *value, int64_t min, int64_t max, uint64_t *out);

#endif
