/* `portkit-target rt sysinfo [--json]`: the facts that decide latency,
 * schema portkit.rt-sysinfo/1. */
#include "pk_cli.h"
#include "pk_json.h"
#include "pk_options.h"
#include "rt_modes.h"
#include "rt_options.h"
#include "rt_sysinfo.h"
#include "rt_usage.h"

int pk_rt_sysinfo(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int c;
    pk_options_start();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'h') {
            rt_usage(stdout);
            return PK_EXIT_OK;
        } else
            return pk_option_error(RT_CMD, c, argv, longopts);
    }
    int status = pk_no_operands(RT_CMD, argc, argv);
    if (status != PK_CONTINUE)
        return status;
    rt_sysinfo *s = rt_sysinfo_collect();
    if (!s)
        return pk_fail(PK_EXIT_ENV, RT_CMD, "out of memory");
    if (!json) {
        rt_sysinfo_text(stdout, s);
        rt_sysinfo_free(s);
        return PK_EXIT_OK;
    }
    pk_json j;
    pk_json_init(&j, stdout);
    pk_json_begin_document(&j, RT_SYSINFO_SCHEMA);
    rt_sysinfo_json(&j, s);
    rt_sysinfo_free(s);
    return pk_json_end_command(&j, RT_CMD);
}
