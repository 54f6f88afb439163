/* `portkit-target vdso [list|verify|bench] [options]`: picks the mode. */
#include "pk_commands.h"
#include "pk_modes.h"
#include "vdso_modes.h"
#include "vdso_usage.h"

static const pk_mode modes[] = {
    {.name = "list", .run = pk_vdso_list, .help = "the vDSO of this process or of a vdso.so file"},
    {.name = "verify", .run = pk_vdso_verify, .help = "vDSO and system call agree on every clock"},
    {.name = "bench", .run = pk_vdso_bench, .help = "ns per call through libc, the vDSO and the system call"},
};

static const pk_modes vdso_modes = {
    .cmd = "vdso",
    .noun = "mode",
    .modes = modes,
    .count = PK_MODE_COUNT(modes),
    .fallback = &modes[0], /* `vdso --json` lists */
    .usage = pk_vdso_usage,
};

int pk_cmd_vdso(int argc, char **argv)
{
    return pk_modes_run(&vdso_modes, argc, argv);
}
