/* `portkit-target rt [sysinfo] [options]`: picks the mode. */
#include <string.h>

#include "pk_commands.h"
#include "rt_modes.h"

int pk_cmd_rt(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "sysinfo"))
        return pk_rt_sysinfo(argc - 1, argv + 1);
    return pk_rt_measure(argc, argv);
}
