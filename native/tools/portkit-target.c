/* portkit-target: the one static multicall agent copied to a board.
 * `portkit-target COMMAND [options]`; every command takes --help and --json. */
#include <stdio.h>
#include <string.h>

#include "pk_arch.h"
#include "pk_cli.h"
#include "pk_commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"cpu", pk_cmd_cpu, "optional instruction-set features of this CPU and kernel"},
    {"vdso", pk_cmd_vdso, "list, verify and benchmark the kernel's vDSO"},
    {"crc32c", pk_cmd_crc32c, "CRC32C of files, --check a list, --bench the implementations"},
    {"rt", pk_cmd_rt, "wake-up latency per CPU (cyclictest's method), sysinfo, timerlat"},
    {"load", pk_cmd_load, "a bounded load (cpu, spawn, io, net, mem, msg, cmd) and what it achieved"},
    {"kconfig", pk_cmd_kconfig, "the running kernel's config file (/proc/config.gz), for audit kconfig"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: portkit-target COMMAND [options]   (portkit %s, %s %s)\n\ncommands:\n",
            PK_VERSION, PK_ARCH, PK_DATA_MODEL);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nexample: portkit-target vdso bench --json\n"
                 "exit codes: 0 ok, 1 check failed, 2 bad usage or input, 3 environment cannot do it\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PK_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return PK_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("portkit-target %s %s %s\n", PK_VERSION, PK_ARCH, PK_DATA_MODEL);
        return PK_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "portkit-target: unknown command '%s' (try --help)\n", argv[1]);
    return PK_EXIT_USAGE;
}
