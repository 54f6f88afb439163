/* `portkit-target vdso [list|verify|bench] [options]`: picks the mode. */
#include <string.h>

#include "pk_cli.h"
#include "pk_commands.h"
#include "vdso_modes.h"

typedef struct mode {
    const char *name;
    int (*run)(int argc, char **argv);
} mode;

static const mode modes[] = {
    {"list", pk_vdso_list},
    {"verify", pk_vdso_verify},
    {"bench", pk_vdso_bench},
};

int pk_cmd_vdso(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return pk_vdso_list(argc, argv);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(argv[1], modes[i].name))
            return modes[i].run(argc - 1, argv + 1);
    return pk_fail(PK_EXIT_USAGE, "vdso", "unknown mode '%s': list, verify or bench (try --help)", argv[1]);
}
