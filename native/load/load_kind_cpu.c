/* `load cpu`: N threads, each busy for --duty percent of every --period
 * (load_duty.h) and asleep for the rest, optionally each on a CPU of its
 * own (--cpus). Achieved: each worker's CPU share from its own thread CPU
 * clock, and their sum; ops_per_s counts the busy loop's arithmetic steps, a
 * figure to compare boards by. */
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "load_duty.h"
#include "load_modes.h"
#include "load_sys.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define DEFAULT_PERIOD_MS 10
#define STEPS_PER_CHECK 4096 /* arithmetic steps between looks at the clock */

typedef struct cpu_worker {
    pk_load_run *run;
    int cpu; /* -1: not pinned */
    uint64_t index;
    double cpu_s, wall_s;
    uint64_t steps;
} cpu_worker;

typedef struct cpu_state {
    pk_load_workers workers; /* first: pk_load_stop_workers */
    size_t count;
    double percent[PK_LOAD_MAX_THREADS];
    cpu_worker w[];
} cpu_state;

static int prepare(pk_load_options *opt)
{
    if (!(opt->given & PK_LOAD_OPT_DUTY))
        opt->duty_percent = 100;
    if (!(opt->given & PK_LOAD_OPT_PERIOD))
        opt->period_ms = DEFAULT_PERIOD_MS;
    if (!(opt->given & PK_LOAD_OPT_WORKERS))
        opt->workers = opt->cpu_count ? opt->cpu_count : pk_allowed_cpu_count();
    if (opt->workers > PK_LOAD_MAX_THREADS)
        opt->workers = PK_LOAD_MAX_THREADS;
    int allowed[PK_MAX_CPUS];
    int n = pk_allowed_cpus(allowed);
    for (size_t i = 0; i < opt->cpu_count; i++) {
        bool ok = false;
        for (int k = 0; k < n && !ok; k++)
            ok = allowed[k] == opt->cpus[i];
        if (!ok)
            return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--cpus: this process may not run on CPU %d", opt->cpus[i]);
    }
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "workers", opt->workers);
    pk_load_put_uint(out, "duty_percent", opt->duty_percent);
    pk_load_put_uint(out, "period_ms", opt->period_ms);
    if (opt->cpu_count)
        pk_load_put_ints(out, "cpus", opt->cpus, opt->cpu_count);
    else
        pk_load_put_null(out, "cpus");
}

/* Busy until end (or the stop): integer steps the compiler cannot drop. */
static uint64_t spin_until(pk_load_run *run, uint64_t end, uint64_t *steps)
{
    static volatile uint64_t sink;
    uint64_t x = sink | 1, now;
    do {
        for (int i = 0; i < STEPS_PER_CHECK; i++)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
        *steps += STEPS_PER_CHECK;
        now = pk_now_ns();
    } while (now < end && pk_load_running(run));
    sink = x;
    return now;
}

static void *cpu_main(void *arg)
{
    cpu_worker *w = arg;
    pk_load_run *run = w->run;
    if (w->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(w->cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) /* 0: this thread */
            pk_load_fail(run, "cannot pin worker %llu to CPU %d", (unsigned long long)w->index, w->cpu);
    }
    const pk_load_options *opt = run->opt;
    uint64_t period = opt->period_ms * 1000000ull;
    uint64_t busy = pk_duty_busy_ns(period, (unsigned)opt->duty_percent);
    double cpu0 = pk_thread_cpu_seconds();
    uint64_t t_start = pk_now_ns();
    uint64_t t0 = t_start + pk_duty_phase_ns(period, w->index, opt->workers);
    uint64_t start = t0;
    bool go = busy == period || pk_load_sleep_until(run, t0);
    while (go && pk_load_running(run)) {
        uint64_t now = spin_until(run, busy < period ? start + busy : UINT64_MAX, &w->steps);
        if (busy < period) {
            start = pk_duty_next_start(t0, period, now);
            go = pk_load_sleep_until(run, start);
        }
    }
    w->cpu_s = pk_thread_cpu_seconds() - cpu0;
    w->wall_s = (double)(pk_now_ns() - t_start) / 1e9;
    return NULL;
}

static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    cpu_state *s = pk_load_new_state(run, offsetof(cpu_state, w), opt->workers, sizeof s->w[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->count = opt->workers;
    for (size_t i = 0; i < s->count; i++) {
        s->w[i].index = i;
        s->w[i].cpu = opt->cpu_count ? opt->cpus[i % opt->cpu_count] : -1;
    }
    if (!pk_load_workers_start(&s->workers, run, s->count, cpu_main, s->w, sizeof s->w[0]))
        return PK_EXIT_ENV;
    return PK_CONTINUE;
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    cpu_state *s = run->state;
    double total = 0, steps = 0;
    for (size_t i = 0; i < s->count; i++) {
        s->percent[i] = s->w[i].wall_s > 0 ? 100.0 * s->w[i].cpu_s / s->w[i].wall_s : NAN;
        total += s->percent[i];
        steps += (double)s->w[i].steps;
    }
    pk_load_put_double(out, "workers_cpu_percent", total);
    pk_load_put_doubles(out, "worker_cpu_percent", s->percent, s->count);
    pk_load_put_rate(out, "ops_per_s", steps, run->seconds);
}

const pk_load_kind pk_load_kind_cpu = {
    .name = "cpu",
    .options = PK_LOAD_OPT_WORKERS | PK_LOAD_OPT_DUTY | PK_LOAD_OPT_PERIOD | PK_LOAD_OPT_CPUS,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = pk_load_stop_workers,
    .achieved = achieved,
};
