#include "rt_sysinfo_warnings.h"

#include <stdarg.h>
#include <string.h>

/* Each warning has a rule id in the rule space of the host's findings
 * (PK + a letter per source + the family digit + two digits): PKS for the
 * facts of the running system, family 1 real-time, as PKK1 is for the
 * kernel config's real-time rules. One id per condition, never reused;
 * docs/formats.md lists them. */

/* Above this exit latency an idle state shows in a wake-up's latency. */
#define IDLE_LATENCY_WARN_US 10

static void warn(rt_sysinfo *s, const char *id, const char *about, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void warn(rt_sysinfo *s, const char *id, const char *about, const char *fmt, ...)
{
    if (s->nwarnings == RT_MAX_WARNINGS)
        return;
    rt_warning *w = &s->warnings[s->nwarnings++];
    w->id = id;
    w->about = about;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
}

static void warn_preemption(rt_sysinfo *s)
{
    const char *model = s->preempt_model;
    const char *mode = !strcmp(model, "dynamic") && s->preempt_mode[0] ? s->preempt_mode : model;
    char how[128] = "";
    if (mode != model)
        snprintf(how, sizeof how, " (PREEMPT_DYNAMIC, %s%s)", s->preempt_mode_source,
                 strcmp(s->preempt_mode_source, "kernel config default") ? "" : "; debugfs would show the current mode");
    if (!strcmp(mode, "none") || !strcmp(mode, "voluntary"))
        warn(s, "PKS101", "preemption",
             "preemption %s%s: a waking real-time thread waits for the kernel's next preemption point; "
             "expect worst cases of milliseconds (boot with preempt=full, or use PREEMPT_RT)",
             mode, how);
    else if (!strcmp(mode, "full") || !strcmp(mode, "lazy"))
        warn(s, "PKS102", "preemption",
             "preemption %s%s, not PREEMPT_RT: interrupt handlers and spinlocked sections still cannot be "
             "preempted; expect worst cases of tens to hundreds of microseconds",
             mode, how);
    else if (!strcmp(mode, "dynamic"))
        warn(s, "PKS103", "preemption", "PREEMPT_DYNAMIC with an unknown mode: mount debugfs to read "
                              "/sys/kernel/debug/sched/preempt");
    else if (!strcmp(mode, "unknown"))
        warn(s, "PKS104", "preemption", "preemption model unknown: no PREEMPT in uname -v and no kernel config (%s); "
                              "none or voluntary, both unsuited to real-time work", s->config_why);
}

static void warn_clock(rt_sysinfo *s)
{
    static const char *const slow[] = {"jiffies", "refined-jiffies", "pit", "acpi_pm", "hpet", "i8253"};
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
        if (!strcmp(s->clocksource, slow[i]))
            warn(s, "PKS105", "clock", "clocksource %s is coarse or slow to read: every timestamp costs or rounds; "
                             "tsc (x86) or arch_sys_counter (ARM) give nanoseconds cheaply (available: %s)",
                 s->clocksource, s->clocksources);
    if (s->clock_res_ns > 1000)
        warn(s, "PKS106", "clock", "clock_getres(CLOCK_MONOTONIC) is %lld ns: no high-resolution timers, every wake-up is "
                         "rounded to the tick (enable CONFIG_HIGH_RES_TIMERS)", s->clock_res_ns);
}

static void warn_cpufreq(rt_sysinfo *s)
{
    const char *governors[RT_MAX_GOVERNORS];
    int ngovernors = 0;
    for (int i = 0; i < s->nonline; i++) {
        const char *g = s->per_cpu[i].governor;
        int k = 0;
        while (k < ngovernors && strcmp(governors[k], g))
            k++;
        if (g[0] && strcmp(g, "performance") && k == ngovernors && ngovernors < RT_MAX_GOVERNORS)
            governors[ngovernors++] = g;
    }
    for (int k = 0; k < ngovernors; k++) {
        int cpus[PK_MAX_CPUS], n = 0;
        for (int i = 0; i < s->nonline; i++)
            if (!strcmp(s->per_cpu[i].governor, governors[k]))
                cpus[n++] = s->per_cpu[i].cpu;
        char list[128];
        pk_cpulist_format(cpus, n, list, sizeof list);
        warn(s, "PKS107", "cpufreq", "cpufreq governor %s on CPUs %s: the clock slows when idle and ramps up after a "
                           "wake-up; set the performance governor for measurements", governors[k], list);
    }
}

static void warn_cpuidle(rt_sysinfo *s)
{
    int cpus[PK_MAX_CPUS], n = 0;
    const rt_idle_state *deepest = NULL;
    for (int i = 0; i < s->nonline; i++) {
        bool any = false;
        for (int k = 0; k < s->per_cpu[i].nstates; k++) {
            const rt_idle_state *st = &s->per_cpu[i].states[k];
            if (st->disabled || st->latency_us <= IDLE_LATENCY_WARN_US)
                continue;
            any = true;
            if (!deepest || st->latency_us > deepest->latency_us)
                deepest = st;
        }
        if (any)
            cpus[n++] = s->per_cpu[i].cpu;
    }
    if (!n)
        return;
    char list[128];
    pk_cpulist_format(cpus, n, list, sizeof list);
    warn(s, "PKS108", "cpuidle", "CPUs %s may enter idle states up to %s (exit latency %lld us), which a wake-up waits "
                       "for; portkit-target rt holds /dev/cpu_dma_latency at 0 to keep them out",
         list, deepest->name, deepest->latency_us);
}

static void warn_rest(rt_sysinfo *s)
{
    if (s->rt_period_us && s->rt_runtime_us == 0)
        warn(s, "PKS109", "rt_throttling", "sched_rt_runtime_us is 0: real-time threads get no CPU time at all");
    else if (s->rt_period_us && s->rt_runtime_us > 0 && s->rt_runtime_us * 10 < s->rt_period_us * 9)
        warn(s, "PKS110", "rt_throttling", "real-time threads may use only %lld of every %lld us: a busy real-time load is "
                                 "stopped for the rest", s->rt_runtime_us, s->rt_period_us);
    if (!s->dma_openable)
        warn(s, "PKS111", "cpu_dma_latency", "cannot open /dev/cpu_dma_latency (%s): deep idle states cannot be held off "
                                   "during a run; run as root", s->dma_error);
    if (!s->timerlat)
        warn(s, "PKS112", "tracefs", "no timerlat: %s; rt --timerlat cannot tell IRQ latency from thread latency",
             s->timerlat_why);
    if (s->loadavg_known && s->nonline && s->loadavg[0] >= s->nonline)
        warn(s, "PKS113", "loadavg", "load average %.2f on %d CPUs: other work competes for the CPUs being measured",
             s->loadavg[0], s->nonline);
    if (s->hypervisor == 1)
        warn(s, "PKS114", "hypervisor", "running under a hypervisor: the host preempts this virtual CPU and interrupts "
                              "exit to it, adding latency the guest can neither see nor control");
}

void rt_sysinfo_warn_all(rt_sysinfo *s)
{
    s->nwarnings = 0;
    warn_preemption(s);
    warn_clock(s);
    if (s->per_cpu) {
        warn_cpufreq(s);
        warn_cpuidle(s);
    }
    warn_rest(s);
}
