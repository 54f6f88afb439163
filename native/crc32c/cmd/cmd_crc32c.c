/* `portkit-target crc32c`: the CRC32C of files (like sha256sum), checking a
 * list of them (like sha256sum -c), and a benchmark of every implementation
 * this CPU can run. The library is include/portkit/crc32c.h.
 *
 *   portkit-target crc32c [FILE...]           "e3069283  FILE" per file; - or none: stdin
 *   portkit-target crc32c --check LIST        "FILE: OK" / "FILE: FAILED" per line of LIST
 *   portkit-target crc32c --bench [--sizes 64,4k,...] [--seconds S]
 *
 * The CRC is printed as the usual big-endian hex of the 32-bit value
 * ("123456789" -> e3069283). Exit codes: 0 ok; 1 a --check mismatch;
 * 2 bad usage, an unreadable file or a malformed --check line (each reported
 * as one line on stderr; the other files are still done); 3 the output
 * cannot be written whole (no memory for --json's errors[], a failed write).
 *
 * The modes (sums, check, bench: crc32c_modes.h) are a pk_modes table like
 * every command's; only here the flags name the mode, as in sha256sum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c_modes.h"
#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_modes.h"
#include "pk_options.h"

#define MAX_SIZE ((size_t)1 << 30)
#define DEFAULT_SECONDS 0.2
#define MAX_SECONDS 3600.0

static const size_t default_sizes[] = {64, 4096, 65536, 1u << 20, 64u << 20};

static void usage(FILE *out)
{
    fputs("usage: portkit-target crc32c [--json] [FILE...]\n"
          "       portkit-target crc32c [--json] --check LIST\n"
          "       portkit-target crc32c [--json] --bench [--sizes N,N,...] [--seconds S]\n"
          "\n"
          "CRC32C (Castagnoli: iSCSI, SCTP, ext4, Btrfs) of each FILE (- or none: stdin),\n"
          "printed like sha256sum: '<8 hex digits>  FILE'.\n"
          "\n"
          "options:\n"
          "  -c, --check LIST  verify the lines of LIST ('-': stdin), written in that format\n"
          "  --bench           throughput of every implementation this CPU can run\n"
          "  --sizes N,N,...   bench buffer sizes in bytes, k/m suffixes for KiB/MiB\n"
          "                    (default 64,4k,64k,1m,64m)\n"
          "  --seconds S       bench time per implementation and size (default 0.2)\n"
          "  --json            machine-readable output (schemas " PK_CRC32C_SCHEMA ", " PK_CRC32C_SCHEMA_BENCH ")\n"
          "  -h, --help        show this help\n"
          "\n"
          "exit codes: 0 ok, 1 a --check mismatch, 2 bad usage, an unreadable file or a\n"
          "malformed --check line (the other files are still done)\n"
          "\n"
          "example: portkit-target crc32c image.bin > image.crc && portkit-target crc32c --check image.crc\n",
          out);
}

/* ------------------------------------------------------------- options */

/* One size: decimal digits with an optional k/K (KiB) or m/M (MiB). */
static bool parse_size(const char *s, size_t *out)
{
    char digits[32];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, s, n + 1);
    unsigned shift = 0;
    char last = digits[n - 1];
    if (last == 'k' || last == 'K')
        shift = 10;
    else if (last == 'm' || last == 'M')
        shift = 20;
    if (shift)
        digits[n - 1] = '\0';
    int64_t v;
    if (!pk_parse_i64(digits, 1, (int64_t)(MAX_SIZE >> shift), &v))
        return false;
    *out = (size_t)v << shift;
    return true;
}

static int parse_sizes(pk_crc32c_options *opt, char *list)
{
    opt->size_count = 0;
    char *save = NULL;
    for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
        if (opt->size_count == PK_CRC32C_MAX_SIZES)
            return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "--sizes: more than %d sizes", PK_CRC32C_MAX_SIZES);
        if (!parse_size(s, &opt->sizes[opt->size_count++]))
            return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "--sizes: '%s' is not a size from 1 byte to 1 GiB (e.g. 64, 4k, 1m)", s);
    }
    if (opt->size_count == 0)
        return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "--sizes needs at least one size");
    return PK_CONTINUE;
}

static const struct option longopts[] = {
    {"json", no_argument, NULL, 'j'},          {"check", required_argument, NULL, 'c'},
    {"bench", no_argument, NULL, 'b'},         {"sizes", required_argument, NULL, 's'},
    {"seconds", required_argument, NULL, 't'}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
#define SHORTOPTS ":hc:"

/* PK_CONTINUE to go on, or the exit code to stop with. */
static int parse_options(int argc, char **argv, pk_crc32c_options *opt)
{
    pk_crc32c_options defaults = {.seconds = DEFAULT_SECONDS};
    defaults.size_count = sizeof default_sizes / sizeof default_sizes[0];
    memcpy(defaults.sizes, default_sizes, sizeof default_sizes);
    *opt = defaults;
    bool sizes_given = false, seconds_given = false;
    pk_options_start();
    int c, status = PK_CONTINUE;
    /* Files and options may mix, as in sha256sum. */
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, SHORTOPTS, longopts, NULL)) != -1) {
        switch (c) {
        case 'j': opt->json = true; break;
        case 'c': opt->check = optarg; break;
        case 'b': opt->bench = true; break;
        case 's': sizes_given = true; status = parse_sizes(opt, optarg); break;
        case 't':
            seconds_given = true;
            status = pk_seconds_option(PK_CRC32C_CMD, "--seconds", optarg, false, MAX_SECONDS, &opt->seconds);
            break;
        case 'h': usage(stdout); return PK_EXIT_OK;
        default: return pk_option_error(PK_CRC32C_CMD, c, argv, longopts);
        }
    }
    if (status != PK_CONTINUE)
        return status;
    if (opt->bench && opt->check)
        return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "--bench and --check do not go together");
    if ((sizes_given || seconds_given) && !opt->bench)
        return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "%s is a --bench option", sizes_given ? "--sizes" : "--seconds");
    /* Only the sums take FILE operands. */
    if (opt->bench || opt->check)
        return pk_no_operands(PK_CRC32C_CMD, argc, argv);
    return PK_CONTINUE;
}

/* ------------------------------------------------------------- modes */

/* Each mode parses the whole command line (argv[0] "crc32c") itself. */

static int finish(int status)
{
    if (fflush(stdout) != 0)
        return pk_fail(PK_EXIT_ENV, PK_CRC32C_CMD, "cannot write the output");
    return status;
}

static int run_sums(int argc, char **argv)
{
    pk_crc32c_options opt;
    int stop = parse_options(argc, argv, &opt);
    return stop != PK_CONTINUE ? stop : finish(pk_crc32c_sum_files(&opt, argc - optind, argv + optind));
}

static int run_check(int argc, char **argv)
{
    pk_crc32c_options opt;
    int stop = parse_options(argc, argv, &opt);
    return stop != PK_CONTINUE ? stop : finish(pk_crc32c_check_list(&opt));
}

static int run_bench(int argc, char **argv)
{
    pk_crc32c_options opt;
    int stop = parse_options(argc, argv, &opt);
    return stop != PK_CONTINUE ? stop : finish(pk_crc32c_run_bench(&opt));
}

static const pk_mode modes[] = {
    {.name = "sums", .run = run_sums, .help = "the CRC32C of each FILE, like sha256sum"},
    {.name = "check", .run = run_check, .help = "--check LIST: verify its lines, like sha256sum -c"},
    {.name = "bench", .run = run_bench, .help = "--bench: throughput of every implementation"},
};

static const pk_modes crc32c_modes = {
    .cmd = PK_CRC32C_CMD,
    .noun = "mode",
    .modes = modes,
    .count = PK_MODE_COUNT(modes),
    .usage = usage,
};

/* The mode the flags ask for: "bench" with --bench, "check" with --check,
 * else "sums". A quiet pass over a copy of argv (getopt_long reorders it);
 * the mode's own parse reports any error, --bench with --check included. */
static const char *mode_of_flags(int argc, char **argv)
{
    char **copy = malloc(((size_t)argc + 1) * sizeof *copy);
    if (!copy)
        return "sums"; /* its parse then runs on argv itself */
    memcpy(copy, argv, ((size_t)argc + 1) * sizeof *copy);
    const char *mode = "sums";
    pk_options_start();
    for (int c; (c = getopt_long(argc, copy, SHORTOPTS, longopts, NULL)) != -1;)
        if (c == 'b')
            mode = "bench";
        else if (c == 'c' && strcmp(mode, "bench") != 0)
            mode = "check";
    free(copy);
    return mode;
}

/* ------------------------------------------------------------- command */

int pk_cmd_crc32c(int argc, char **argv)
{
    return pk_modes_find(&crc32c_modes, mode_of_flags(argc, argv))->run(argc, argv);
}
