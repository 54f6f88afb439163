/* portkit-target: the one static multicall agent copied to a board.
 * `portkit-target COMMAND [options]`; every command takes --help and --json. */
#include <stdio.h>
#include <string.h>

#include "pk_arch.h"
#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_modes.h"

static const pk_mode commands[] = {
    {.name = "cpu", .run = pk_cmd_cpu, .help = "optional instruction-set features of this CPU and kernel"},
    {.name = "vdso", .run = pk_cmd_vdso, .help = "list, verify and benchmark the kernel's vDSO"},
    {.name = "crc32c", .run = pk_cmd_crc32c, .help = "CRC32C of files, --check a list, --bench the implementations"},
    {.name = "rt", .run = pk_cmd_rt, .help = "wake-up latency per CPU (cyclictest's method), sysinfo, timerlat"},
    {.name = "load", .run = pk_cmd_load,
     .help = "a bounded load (cpu, spawn, io, net, mem, msg, cmd) and what it achieved"},
    {.name = "kconfig", .run = pk_cmd_kconfig,
     .help = "the running kernel's config file (/proc/config.gz), for audit kconfig"},
};

/* The agent's own usage and errors differ from a command's (no command name
 * to prefix, --version): main() handles those and the table the rest. */
static const pk_modes agent = {
    .cmd = "portkit-target",
    .noun = "command",
    .modes = commands,
    .count = PK_MODE_COUNT(commands),
};

static void usage(FILE *out)
{
    fprintf(out, "usage: portkit-target COMMAND [options]   (portkit %s, %s %s)\n\ncommands:\n",
            PK_VERSION, PK_ARCH, PK_DATA_MODEL);
    pk_modes_usage(out, &agent, 8);
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
    const pk_mode *command = pk_modes_find(&agent, argv[1]);
    if (command)
        return command->run(argc - 1, argv + 1);
    fprintf(stderr, "portkit-target: unknown command '%s' (try --help)\n", argv[1]);
    return PK_EXIT_USAGE;
}
