/* `portkit-target vdso [list|verify|bench] [options]`: picks the mode and
 * holds what the modes share. */
#include <getopt.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_commands.h"
#include "vdso_cmd.h"

typedef struct mode {
    const char *name;
    int (*run)(int argc, char **argv);
} mode;

static const mode modes[] = {
    {"list", pk_vdso_list},
    {"verify", pk_vdso_verify},
    {"bench", pk_vdso_bench},
};

void pk_vdso_usage(FILE *out)
{
    fputs("usage: portkit-target vdso [list] [--image FILE | --dump FILE] [--require] [--json]\n"
          "       portkit-target vdso verify [--iterations N] [--clock NAME] [--json]\n"
          "       portkit-target vdso bench [--calls N] [--repeat R] [--json]\n"
          "\n"
          "The kernel's vDSO answers gettimeofday and clock_gettime without a system call.\n"
          "  list    the vDSO of this process (or of a vdso.so file): soname, symbols, versions;\n"
          "          without a vDSO, what every gettimeofday costs here and why it is missing\n"
          "  verify  vDSO and system call agree: syscall <= vDSO <= syscall for every clock,\n"
          "          equal clock_getres; exit 1 when a check fails or there is no vDSO\n"
          "  bench   ns per call through libc, the vDSO and the raw system call\n"
          "\n"
          "options:\n"
          "  --image FILE      list: parse a vdso.so / vdso32.so file instead of the live vDSO\n"
          "  --dump FILE       list: write the live vDSO image to FILE\n"
          "  --require         list: exit 1 when this process has no vDSO\n"
          "  --iterations N    verify: interleaved samples per check (default 10000)\n"
          "  --clock NAME      verify: only this clock (REALTIME, MONOTONIC, BOOTTIME, TAI, ...,\n"
          "                    or a clock id)\n"
          "  --calls N         bench: calls per repeat (default 500000, the field report's loop)\n"
          "  --repeat R        bench: repeats, the median is reported (default 5)\n"
          "  --json            machine-readable output (schemas portkit.vdso/1,\n"
          "                    portkit.vdso-verify/1, portkit.vdso-bench/1)\n"
          "\n"
          "examples:\n"
          "  portkit-target vdso --require\n"
          "  portkit-target vdso --image /lib/modules/$(uname -r)/vdso/vdso32.so\n"
          "  portkit-target vdso verify --clock MONOTONIC_COARSE\n"
          "  portkit-target vdso bench --calls 500000 --json\n"
          "exit codes: 0 ok, 1 check failed or no vDSO (--require, verify), 2 bad usage or input\n",
          out);
}

void pk_vdso_getopt_start(void)
{
    optind = 0; /* 0 re-initialises getopt completely (glibc, musl) */
    opterr = 0; /* errors are reported by pk_vdso_option_error, as one line */
}

int pk_vdso_option_error(int opt, char **argv)
{
    const char *arg = argv[optind - 1];
    if (opt == ':')
        return pk_fail(PK_EXIT_USAGE, "vdso", "option '%s' needs a value (try --help)", arg);
    if (optopt && strncmp(arg, "--", 2) != 0)
        return pk_fail(PK_EXIT_USAGE, "vdso", "unknown option '-%c' (try --help)", optopt);
    return pk_fail(PK_EXIT_USAGE, "vdso", "unknown option '%s' (try --help)", arg);
}

int pk_vdso_no_operands(int argc, char **argv)
{
    if (optind < argc)
        return pk_fail(PK_EXIT_USAGE, "vdso", "unexpected argument '%s' (try --help)", argv[optind]);
    return PK_VDSO_CONTINUE;
}

int pk_vdso_count_option(const char *option, const char *value, int64_t min, int64_t max, uint64_t *out)
{
    int64_t v;
    if (!pk_parse_i64(value, min, max, &v))
        return pk_fail(PK_EXIT_USAGE, "vdso", "%s '%s': expected a whole number from %lld to %lld", option,
                       value, (long long)min, (long long)max);
    *out = (uint64_t)v;
    return PK_VDSO_CONTINUE;
}

int pk_cmd_vdso(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return pk_vdso_list(argc, argv);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run(argc - 1, argv + 1);
    return pk_fail(PK_EXIT_USAGE, "vdso", "unknown mode '%s': list, verify or bench (try --help)", argv[1]);
}
