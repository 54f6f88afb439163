/* rt_sysinfo as JSON (portkit.rt-sysinfo/1, docs/formats.md) and as text. */
#include <string.h>

#include "rt_sysinfo.h"

static void kv_string_or_null(pk_json *j, const char *key, const char *s)
{
    pk_json_kv_string(j, key, s && s[0] ? s : NULL);
}

static void cpu_array(pk_json *j, const char *key, const int *cpus, int n)
{
    pk_json_key(j, key);
    if (n < 0) {
        pk_json_null(j);
        return;
    }
    pk_json_begin_array(j);
    for (int i = 0; i < n; i++)
        pk_json_int(j, cpus[i]);
    pk_json_end_array(j);
}

/* The blank-separated words of text as an array of strings. */
static void word_array(pk_json *j, const char *key, const char *text)
{
    pk_json_key(j, key);
    pk_json_begin_array(j);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " \t\n");
        if (n) {
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)n, p);
            pk_json_string(j, word);
        }
        p += n;
        p += strspn(p, " \t\n");
    }
    pk_json_end_array(j);
}

static void cpufreq_json(pk_json *j, const rt_sysinfo *s)
{
    pk_json_key(j, "cpufreq");
    pk_json_begin_object(j);
    pk_json_kv_bool(j, "available", s->cpufreq);
    pk_json_key(j, "governors");
    pk_json_begin_array(j);
    for (int i = 0; s->cpufreq && i < s->nonline; i++) {
        pk_json_begin_object(j);
        pk_json_kv_int(j, "cpu", s->per_cpu[i].cpu);
        kv_string_or_null(j, "governor", s->per_cpu[i].governor);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
    pk_json_end_object(j);
}

static void cpuidle_json(pk_json *j, const rt_sysinfo *s)
{
    pk_json_key(j, "cpuidle");
    pk_json_begin_object(j);
    pk_json_kv_bool(j, "available", s->cpuidle);
    kv_string_or_null(j, "driver", s->idle_driver);
    kv_string_or_null(j, "governor", s->idle_governor);
    pk_json_key(j, "cpus");
    pk_json_begin_array(j);
    for (int i = 0; s->cpuidle && i < s->nonline; i++) {
        const rt_cpu_facts *c = &s->per_cpu[i];
        pk_json_begin_object(j);
        pk_json_kv_int(j, "cpu", c->cpu);
        pk_json_key(j, "states");
        pk_json_begin_array(j);
        for (int k = 0; k < c->nstates; k++) {
            pk_json_begin_object(j);
            pk_json_kv_string(j, "name", c->states[k].name);
            pk_json_kv_int_or_null(j, "latency_us", c->states[k].latency_us >= 0, c->states[k].latency_us);
            pk_json_kv_bool(j, "disabled", c->states[k].disabled);
            pk_json_end_object(j);
        }
        pk_json_end_array(j);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
    pk_json_end_object(j);
}

static void tracefs_json(pk_json *j, const rt_sysinfo *s)
{
    pk_json_key(j, "tracefs");
    pk_json_begin_object(j);
    kv_string_or_null(j, "path", s->tracefs);
    word_array(j, "tracers", s->tracers);
    pk_json_kv_bool(j, "timerlat", s->timerlat);
    pk_json_kv_bool(j, "osnoise", s->osnoise);
    kv_string_or_null(j, "why", s->timerlat ? NULL : s->timerlat_why);
    pk_json_end_object(j);
}

void rt_sysinfo_json(pk_json *j, const rt_sysinfo *s)
{
    pk_json_key(j, "kernel");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "release", s->uts.release);
    pk_json_kv_string(j, "version", s->uts.version);
    pk_json_kv_string(j, "machine", s->uts.machine);
    kv_string_or_null(j, "config", s->config_source);
    kv_string_or_null(j, "config_why", s->config_source[0] ? NULL : s->config_why);
    pk_json_end_object(j);

    pk_json_key(j, "preemption");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "model", s->preempt_model);
    kv_string_or_null(j, "source", s->preempt_source);
    kv_string_or_null(j, "dynamic_mode", s->preempt_mode);
    kv_string_or_null(j, "dynamic_mode_source", s->preempt_mode_source);
    pk_json_end_object(j);

    pk_json_kv_int_or_null(j, "hz", s->hz > 0, s->hz);

    pk_json_key(j, "clock");
    pk_json_begin_object(j);
    kv_string_or_null(j, "clocksource", s->clocksource);
    word_array(j, "available", s->clocksources);
    pk_json_kv_int_or_null(j, "monotonic_resolution_ns", s->clock_res_ns >= 0, s->clock_res_ns);
    pk_json_end_object(j);

    pk_json_key(j, "cpus");
    pk_json_begin_object(j);
    pk_json_kv_int(j, "count", s->nonline);
    cpu_array(j, "online", s->online, s->nonline);
    cpu_array(j, "isolated", s->isolated, s->nisolated);
    cpu_array(j, "nohz_full", s->nohz_full, s->nnohz_full);
    pk_json_end_object(j);

    cpufreq_json(j, s);
    cpuidle_json(j, s);

    pk_json_key(j, "rt_throttling");
    if (s->rt_period_us) {
        pk_json_begin_object(j);
        pk_json_kv_int(j, "runtime_us", s->rt_runtime_us);
        pk_json_kv_int(j, "period_us", s->rt_period_us);
        pk_json_end_object(j);
    } else {
        pk_json_null(j);
    }

    pk_json_key(j, "cpu_dma_latency");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "path", "/dev/cpu_dma_latency");
    pk_json_kv_bool(j, "openable", s->dma_openable);
    kv_string_or_null(j, "error", s->dma_openable ? NULL : s->dma_error);
    pk_json_end_object(j);

    tracefs_json(j, s);

    pk_json_key(j, "loadavg");
    if (s->loadavg_known) {
        pk_json_begin_array(j);
        for (int i = 0; i < 3; i++)
            pk_json_double(j, (double)(long long)(s->loadavg[i] * 100 + 0.5) / 100); /* as /proc/loadavg */
        pk_json_end_array(j);
    } else {
        pk_json_null(j);
    }
    pk_json_key(j, "hypervisor");
    if (s->hypervisor >= 0)
        pk_json_bool(j, s->hypervisor == 1);
    else
        pk_json_null(j);

    pk_json_key(j, "warnings");
    pk_json_begin_array(j);
    for (int i = 0; i < s->nwarnings; i++) {
        pk_json_begin_object(j);
        pk_json_kv_string(j, "id", s->warnings[i].id);
        pk_json_kv_string(j, "about", s->warnings[i].about);
        pk_json_kv_string(j, "message", s->warnings[i].message);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
}

static const char *or_dash(const char *s)
{
    return s && s[0] ? s : "-";
}

void rt_sysinfo_text(FILE *out, const rt_sysinfo *s)
{
    char list[256];
    fprintf(out, "kernel          %s %s (%s)\n", s->uts.release, s->uts.version, s->uts.machine);
    fprintf(out, "kernel config   %s\n", s->config_source[0] ? s->config_source : s->config_why);
    fprintf(out, "preemption      %s", s->preempt_model);
    if (s->preempt_mode[0])
        fprintf(out, ", mode %s (%s)", s->preempt_mode, s->preempt_mode_source);
    fprintf(out, "   [%s]\n", or_dash(s->preempt_source));
    if (s->hz > 0)
        fprintf(out, "HZ              %lld\n", s->hz);
    else
        fprintf(out, "HZ              unknown\n");
    fprintf(out, "clocksource     %s (available: %s), CLOCK_MONOTONIC resolution %lld ns\n", or_dash(s->clocksource),
            or_dash(s->clocksources), s->clock_res_ns);
    pk_cpulist_format(s->online, s->nonline, list, sizeof list);
    fprintf(out, "CPUs online     %d (%s)\n", s->nonline, list);
    pk_cpulist_format(s->isolated, s->nisolated, list, sizeof list);
    fprintf(out, "isolated        %s\n", or_dash(list));
    if (s->nnohz_full >= 0)
        pk_cpulist_format(s->nohz_full, s->nnohz_full, list, sizeof list);
    fprintf(out, "nohz_full       %s\n", s->nnohz_full >= 0 ? or_dash(list) : "not in this kernel");
    fprintf(out, "cpufreq         ");
    for (int i = 0; s->cpufreq && i < s->nonline; i++)
        fprintf(out, "cpu%d %s%s", s->per_cpu[i].cpu, or_dash(s->per_cpu[i].governor), i + 1 < s->nonline ? ", " : "");
    fprintf(out, "%s\n", s->cpufreq ? "" : "no cpufreq");
    fprintf(out, "cpuidle         driver %s, governor %s", or_dash(s->idle_driver), or_dash(s->idle_governor));
    if (!s->cpuidle)
        fprintf(out, ", no idle states");
    for (int i = 0; s->cpuidle && i < s->nonline; i++) {
        fprintf(out, "\n  cpu%d:", s->per_cpu[i].cpu);
        for (int k = 0; k < s->per_cpu[i].nstates; k++) {
            const rt_idle_state *st = &s->per_cpu[i].states[k];
            fprintf(out, " %s (%lld us%s)", st->name, st->latency_us, st->disabled ? ", disabled" : "");
        }
    }
    fputc('\n', out);
    if (s->rt_period_us)
        fprintf(out, "RT throttling   %lld of %lld us\n", s->rt_runtime_us, s->rt_period_us);
    else
        fprintf(out, "RT throttling   unknown\n");
    fprintf(out, "cpu_dma_latency %s\n", s->dma_openable ? "can be opened" : s->dma_error);
    fprintf(out, "tracefs         %s, tracers: %s\n", or_dash(s->tracefs), or_dash(s->tracers));
    fprintf(out, "timerlat        %s\n", s->timerlat ? "available" : s->timerlat_why);
    if (s->loadavg_known)
        fprintf(out, "load average    %.2f %.2f %.2f\n", s->loadavg[0], s->loadavg[1], s->loadavg[2]);
    fprintf(out, "hypervisor      %s\n", s->hypervisor < 0 ? "unknown" : s->hypervisor ? "yes" : "no");
    for (int i = 0; i < s->nwarnings; i++)
        fprintf(out, "warning: %s %s: %s\n", s->warnings[i].id, s->warnings[i].about, s->warnings[i].message);
}
