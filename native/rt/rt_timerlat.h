/* --timerlat: the kernel's timerlat tracer (Documentation/trace/timerlat-tracer.rst),
 * the method of `rtla timerlat`. Its per-CPU kernel thread wakes every period
 * and the trace tells, per activation, the latency seen by the timer IRQ and
 * the latency seen by the thread once it ran: the IRQ part is hardware and
 * interrupts-off sections, the rest is the scheduler. It runs after the
 * measuring threads, for as long and on the same CPUs, so neither disturbs
 * the other (its threads run at SCHED_FIFO 95, above ours). */
#ifndef RT_TIMERLAT_H
#define RT_TIMERLAT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "pk_stats.h"
#include "rt_tracefs.h"

typedef struct rt_timerlat_cpu {
    int cpu;
    pk_hist irq, thread;
    uint64_t first_ts_ns; /* the trace clock at this CPU's first sample */
    bool seen;
} rt_timerlat_cpu;

typedef struct rt_timerlat {
    bool available;     /* the kernel offers the tracer and tracefs is usable */
    bool ran;           /* it was set up and measured */
    char why[400];      /* not available or did not run: why */
    uint64_t period_us;
    double duration_s;  /* how long it ran */
    uint64_t lost_events; /* trace_pipe's "[LOST N EVENTS]": the reader fell behind */
    bool interrupted;
    int ncpus;
    rt_timerlat_cpu *cpus;
} rt_timerlat;

/* What to run: on cpus[0..ncpus) with period_us for duration_ns, samples into
 * histograms of buckets x bucket_ns. config_set: CONFIG_TIMERLAT_TRACER in
 * the kernel config (1, 0, -1 unknown), to say why the tracer is missing. */
typedef struct rt_timerlat_plan {
    const int *cpus;
    int ncpus;
    uint64_t period_us, duration_ns, bucket_ns, buckets;
    int config_set;
} rt_timerlat_plan;

/* Called about every 100 ms while the tracer runs, with the time it has run. */
typedef void (*rt_timerlat_tick)(void *ctx, const rt_timerlat *r, uint64_t elapsed_ns);

/* Runs the tracer as planned (less long if *interrupted becomes non-zero),
 * reading trace_pipe as it goes, and puts back everything it changed in
 * tracefs. False with r->why set when it could not run (no tracer, not
 * permitted, a setting refused); r->cpus holds the histograms when it did.
 * rt_timerlat_free in either case. */
bool rt_timerlat_run(rt_timerlat *r, const rt_tracefs *t, const rt_timerlat_plan *plan,
                     const volatile sig_atomic_t *interrupted, rt_timerlat_tick tick, void *ctx);
void rt_timerlat_free(rt_timerlat *r);

#endif
