/* Collecting the facts of rt_sysinfo.h from /proc, /sys, uname, the kernel
 * config and clock_getres. Warnings are derived afterwards
 * (rt_sysinfo_warnings.c). */
#include "rt_sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pk_kconfig.h"
#include "rt_sysfs.h"
#include "rt_sysinfo_warnings.h"
#include "rt_tracefs.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"

/* Whether word is one of the blank-separated words of text. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p += n)
        if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

/* The model the config names; the first match wins (PREEMPT_DYNAMIC kernels
 * also set the model they boot with). */
static const char *config_preempt_model(const pk_kconfig *k)
{
    static const struct {
        const char *config, *model;
    } models[] = {{"CONFIG_PREEMPT_RT", "rt"},    {"CONFIG_PREEMPT_DYNAMIC", "dynamic"},
                  {"CONFIG_PREEMPT_LAZY", "lazy"}, {"CONFIG_PREEMPT", "full"},
                  {"CONFIG_PREEMPT_VOLUNTARY", "voluntary"}, {"CONFIG_PREEMPT_NONE", "none"}};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (pk_kconfig_enabled(k, models[i].config))
            return models[i].model;
    return NULL;
}

/* The mode a PREEMPT_DYNAMIC kernel runs in: debugfs shows the current one
 * in parentheses ("none voluntary (full) lazy"); else preempt= on the
 * command line; else the config's default. */
static void dynamic_mode(rt_sysinfo *s, const pk_kconfig *k)
{
    char text[128], *open, *close;
    if (rt_read_text("/sys/kernel/debug/sched/preempt", text, sizeof text) && (open = strchr(text, '(')) &&
        (close = strchr(open, ')')) && close - open - 1 < (long)sizeof s->preempt_mode) {
        snprintf(s->preempt_mode, sizeof s->preempt_mode, "%.*s", (int)(close - open - 1), open + 1);
        s->preempt_mode_source = "debugfs";
        return;
    }
    char cmdline[4096];
    if (rt_read_text("/proc/cmdline", cmdline, sizeof cmdline)) {
        for (char *p = cmdline; (p = strstr(p, "preempt=")) != NULL; p++)
            if (p == cmdline || p[-1] == ' ') {
                snprintf(s->preempt_mode, sizeof s->preempt_mode, "%.*s", (int)strcspn(p + 8, " "), p + 8);
                s->preempt_mode_source = "kernel command line";
                return;
            }
    }
    static const struct {
        const char *config, *mode;
    } defaults[] = {{"CONFIG_PREEMPT_NONE", "none"},
                    {"CONFIG_PREEMPT_VOLUNTARY", "voluntary"},
                    {"CONFIG_PREEMPT_LAZY", "lazy"},
                    {"CONFIG_PREEMPT", "full"}};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (pk_kconfig_enabled(k, defaults[i].config)) {
            snprintf(s->preempt_mode, sizeof s->preempt_mode, "%s", defaults[i].mode);
            s->preempt_mode_source = "kernel config default";
            return;
        }
}

static void preemption(rt_sysinfo *s, const pk_kconfig *k)
{
    long long realtime;
    const char *from_config = config_preempt_model(k);
    if (rt_read_long("/sys/kernel/realtime", &realtime) && realtime == 1) {
        s->preempt_model = "rt";
        s->preempt_source = "/sys/kernel/realtime";
    } else if (from_config) {
        s->preempt_model = from_config;
        s->preempt_source = s->config_source;
    } else {
        /* uname -v: "#1 SMP PREEMPT_DYNAMIC ...", "... PREEMPT_RT ...", "... PREEMPT ..." */
        const char *v = s->uts.version;
        s->preempt_source = "uname -v";
        s->preempt_model = has_word(v, "PREEMPT_RT")        ? "rt"
                           : has_word(v, "PREEMPT_DYNAMIC") ? "dynamic"
                           : has_word(v, "PREEMPT_LAZY")    ? "lazy"
                           : has_word(v, "PREEMPT")         ? "full"
                                                            : "unknown"; /* none or voluntary: uname cannot tell */
    }
    if (!strcmp(s->preempt_model, "dynamic"))
        dynamic_mode(s, k);
}

static void clocks(rt_sysinfo *s)
{
    rt_read_text(CLOCKSOURCE_DIR "/current_clocksource", s->clocksource, sizeof s->clocksource);
    rt_read_text(CLOCKSOURCE_DIR "/available_clocksource", s->clocksources,
                 sizeof s->clocksources);
    struct timespec res;
    s->clock_res_ns = clock_getres(CLOCK_MONOTONIC, &res) == 0 ? res.tv_sec * 1000000000LL + res.tv_nsec : -1;
}

static int read_cpulist(const char *path, int *cpus)
{
    char text[4096];
    if (!rt_read_text(path, text, sizeof text))
        return -1;
    return pk_cpulist_parse(text, cpus);
}

static void cpu_facts(rt_sysinfo *s)
{
    s->nonline = read_cpulist(CPU_DIR "/online", s->online);
    if (s->nonline < 0) { /* no sysfs: this process's own count */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        s->nonline = n > 0 && n <= PK_MAX_CPUS ? (int)n : 0;
        for (int i = 0; i < s->nonline; i++)
            s->online[i] = i;
    }
    s->nisolated = read_cpulist(CPU_DIR "/isolated", s->isolated);
    if (s->nisolated < 0)
        s->nisolated = 0;
    s->nnohz_full = read_cpulist(CPU_DIR "/nohz_full", s->nohz_full);
    rt_read_text(CPU_DIR "/cpuidle/current_driver", s->idle_driver, sizeof s->idle_driver);
    rt_read_text(CPU_DIR "/cpuidle/current_governor", s->idle_governor, sizeof s->idle_governor);

    s->per_cpu = calloc(s->nonline ? (size_t)s->nonline : 1, sizeof *s->per_cpu);
    for (int i = 0; s->per_cpu && i < s->nonline; i++) {
        rt_cpu_facts *c = &s->per_cpu[i];
        char path[256];
        c->cpu = s->online[i];
        snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpufreq/scaling_governor", c->cpu);
        if (rt_read_text(path, c->governor, sizeof c->governor) && c->governor[0])
            s->cpufreq = true;
        for (int k = 0; k < RT_MAX_IDLE_STATES; k++) {
            rt_idle_state *st = &c->states[c->nstates];
            long long disabled = 0;
            snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpuidle/state%d/name", c->cpu, k);
            if (!rt_read_text(path, st->name, sizeof st->name))
                break;
            snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpuidle/state%d/latency", c->cpu, k);
            if (!rt_read_long(path, &st->latency_us))
                st->latency_us = -1;
            snprintf(path, sizeof path, CPU_DIR "/cpu%d/cpuidle/state%d/disable", c->cpu, k);
            st->disabled = rt_read_long(path, &disabled) && disabled != 0;
            c->nstates++;
            s->cpuidle = true;
        }
    }
}

static void dma_latency(rt_sysinfo *s)
{
    /* Opening adds a PM QoS request at the default; closing removes it. */
    int fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
    s->dma_openable = fd >= 0;
    if (fd >= 0)
        close(fd);
    else
        snprintf(s->dma_error, sizeof s->dma_error, "%s", strerror(errno));
}

static void tracing(rt_sysinfo *s)
{
    rt_tracefs t;
    rt_tracefs_find(&t);
    snprintf(s->tracefs, sizeof s->tracefs, "%s", t.path);
    s->timerlat = rt_tracer_usable(&t, "timerlat", "CONFIG_TIMERLAT_TRACER", s->timerlat_config, s->tracers,
                                   sizeof s->tracers, s->timerlat_why, sizeof s->timerlat_why);
    s->osnoise = rt_tracers_have(s->tracers, "osnoise");
}

/* x86 CPUs under a hypervisor show the "hypervisor" flag; Xen and
 * device-tree guests say so in /sys and /proc/device-tree. */
static int hypervisor(void)
{
    if (access("/sys/hypervisor/type", F_OK) == 0 || access("/proc/device-tree/hypervisor", F_OK) == 0)
        return 1;
    size_t len;
    char *cpuinfo = rt_read_whole("/proc/cpuinfo", 4u << 20, &len);
    if (!cpuinfo)
        return -1;
    int found = -1;
    char *save = NULL;
    for (char *line = strtok_r(cpuinfo, "\n", &save); line && found != 1; line = strtok_r(NULL, "\n", &save))
        if (!strncmp(line, "flags", 5) && strchr(line, ':'))
            found = has_word(strchr(line, ':') + 1, "hypervisor");
    free(cpuinfo);
    return found;
}

rt_sysinfo *rt_sysinfo_collect(void)
{
    rt_sysinfo *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    uname(&s->uts);
    pk_kconfig k;
    if (pk_kconfig_load(&k, s->uts.release)) {
        char v[32];
        snprintf(s->config_source, sizeof s->config_source, "%s", k.source);
        s->hz = pk_kconfig_get(&k, "CONFIG_HZ", v, sizeof v) ? atoll(v) : 0;
        s->timerlat_config = pk_kconfig_enabled(&k, "CONFIG_TIMERLAT_TRACER");
    } else {
        snprintf(s->config_why, sizeof s->config_why, "%s", k.why);
        s->timerlat_config = -1;
    }
    preemption(s, &k);
    pk_kconfig_free(&k);
    clocks(s);
    cpu_facts(s);
    if (!rt_read_long("/proc/sys/kernel/sched_rt_runtime_us", &s->rt_runtime_us) ||
        !rt_read_long("/proc/sys/kernel/sched_rt_period_us", &s->rt_period_us))
        s->rt_period_us = 0;
    dma_latency(s);
    tracing(s);
    s->loadavg_known = getloadavg(s->loadavg, 3) == 3;
    s->hypervisor = hypervisor();
    rt_sysinfo_warn_all(s);
    return s;
}

void rt_sysinfo_free(rt_sysinfo *s)
{
    if (s)
        free(s->per_cpu);
    free(s);
}
