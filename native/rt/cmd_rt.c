/* `portkit-target rt [sysinfo] [options]`: picks the mode. */
#include "pk_commands.h"
#include "pk_modes.h"
#include "rt_modes.h"
#include "rt_usage.h"

/* Measuring is what `rt` does without a mode word: it has no name of its own. */
static const pk_mode measure = {.name = "rt", .run = pk_rt_measure, .help = "wake-up latency per CPU"};

static const pk_mode modes[] = {
    {.name = "sysinfo", .run = pk_rt_sysinfo, .help = "the facts that decide latency"},
};

static const pk_modes rt_modes = {
    .cmd = "rt",
    .noun = "mode",
    .modes = modes,
    .count = PK_MODE_COUNT(modes),
    /* `rt --loops 200`: measuring takes options only, so any other word is
     * its unexpected argument. */
    .fallback = &measure,
    .words_to_fallback = true,
    .usage = rt_usage,
};

int pk_cmd_rt(int argc, char **argv)
{
    return pk_modes_run(&rt_modes, argc, argv);
}
