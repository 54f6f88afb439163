/* Progress while a run goes on: with --progress one JSON line on stderr per
 * report (the host reads the agent through a pipe), else on a terminal one
 * status line rewritten in place, else nothing.
 *
 *   {"progress": {"phase": "measure", "elapsed_s": 1.25, "total_s": 10,
 *                 "loops": 1250, "max_ns": 48211,
 *                 "threads": [{"cpu": 0, "loops": 1250, "max_ns": 48211}, ...]}}
 *
 * loops: the fewest wake-ups any thread has had (timerlat: thread samples);
 * max_ns: the worst latency so far over all threads; total_s: the planned
 * length (null when unknown). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "rt_run.h"

typedef struct snapshot {
    int cpu;
    uint64_t loops, max_ns;
} snapshot;

static snapshot thread_snapshot(const rt_run *run, int i, const char *phase)
{
    if (!strcmp(phase, "timerlat")) {
        const rt_timerlat_cpu *c = &run->timerlat.cpus[i];
        return (snapshot){c->cpu, c->thread.n, c->thread.max_ns};
    }
    rt_thread *t = &run->threads[i];
    return (snapshot){t->cpu, atomic_load_explicit(&t->loops_done, memory_order_relaxed),
                      atomic_load_explicit(&t->max_ns, memory_order_relaxed)};
}

/* The planned length in ns; 0 when unknown. */
static uint64_t planned_ns(const rt_run *run, const char *phase)
{
    if (!strcmp(phase, "timerlat"))
        return run->end_ns - run->start_ns;
    uint64_t by_loops = run->opt.loops ? run->opt.loops * rt_thread_interval_ns(&run->opt, run->nthreads - 1) : 0;
    uint64_t by_time = run->opt.duration_ns;
    return by_loops && by_time ? (by_loops < by_time ? by_loops : by_time) : by_loops ? by_loops : by_time;
}

static void json_line(const rt_run *run, const char *phase, uint64_t elapsed_ns, int n)
{
    snapshot now[RT_MAX_CPUS]; /* read once: the threads go on counting */
    uint64_t fewest = UINT64_MAX, worst = 0;
    for (int i = 0; i < n; i++) {
        now[i] = thread_snapshot(run, i, phase);
        fewest = now[i].loops < fewest ? now[i].loops : fewest;
        worst = now[i].max_ns > worst ? now[i].max_ns : worst;
    }
    pk_json j;
    pk_json_init(&j, stderr);
    pk_json_begin_object(&j);
    pk_json_key(&j, "progress");
    pk_json_begin_object(&j);
    pk_json_kv_string(&j, "phase", phase);
    pk_json_kv_double(&j, "elapsed_s", (double)(elapsed_ns / 1000000) / 1e3);
    uint64_t planned = planned_ns(run, phase);
    pk_json_key(&j, "total_s");
    if (planned)
        pk_json_double(&j, (double)(planned / 1000000) / 1e3);
    else
        pk_json_null(&j);
    pk_json_kv_uint(&j, "loops", n ? fewest : 0);
    pk_json_kv_uint(&j, "max_ns", worst);
    pk_json_key(&j, "threads");
    pk_json_begin_array(&j);
    for (int i = 0; i < n; i++) {
        pk_json_begin_object(&j);
        pk_json_kv_int(&j, "cpu", now[i].cpu);
        pk_json_kv_uint(&j, "loops", now[i].loops);
        pk_json_kv_uint(&j, "max_ns", now[i].max_ns);
        pk_json_end_object(&j);
    }
    pk_json_end_array(&j);
    pk_json_end_object(&j);
    pk_json_end_object(&j);
    fputc('\n', stderr);
    fflush(stderr);
}

static void status_line(const rt_run *run, const char *phase, uint64_t elapsed_ns, int n)
{
    uint64_t planned = planned_ns(run, phase);
    char line[256];
    int len = snprintf(line, sizeof line, "\rrt %s %.1f", phase, (double)elapsed_ns / 1e9);
    if (planned)
        len += snprintf(line + len, sizeof line - (size_t)len, "/%.1f", (double)planned / 1e9);
    len += snprintf(line + len, sizeof line - (size_t)len, " s  max us:");
    for (int i = 0; i < n && len < (int)sizeof line - 24; i++) {
        snapshot s = thread_snapshot(run, i, phase);
        len += snprintf(line + len, sizeof line - (size_t)len, " cpu%d %.1f", s.cpu, (double)s.max_ns / 1e3);
    }
    if (n)
        snprintf(line + len, sizeof line - (size_t)len, "  loops %llu",
                 (unsigned long long)thread_snapshot(run, 0, phase).loops);
    fputs(line, stderr);
    fputs("\033[K", stderr); /* clear what a longer line left */
    fflush(stderr);
}

void rt_progress(rt_run *run, const char *phase, uint64_t elapsed_ns, bool final)
{
    int n = !strcmp(phase, "timerlat") ? run->timerlat.ncpus : run->nthreads;
    if (run->opt.progress) {
        json_line(run, phase, elapsed_ns, n);
    } else if (run->status_line) {
        if (final)
            fputs("\r\033[K", stderr);
        else
            status_line(run, phase, elapsed_ns, n);
        fflush(stderr);
    }
}
