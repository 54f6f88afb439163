/* The measuring threads: one per CPU, pinned, at the chosen policy and
 * priority, sleeping to absolute times on CLOCK_MONOTONIC (cyclictest's
 * method, written anew). */
#ifndef RT_THREAD_H
#define RT_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "pk_stats.h"
#include "rt_break.h"
#include "rt_options.h"

/* What every thread shares with the main thread. */
typedef struct rt_shared {
    atomic_bool go;          /* all threads are ready: start measuring */
    atomic_bool stop;        /* stop after the current wake-up */
    uint64_t start_ns;       /* CLOCK_MONOTONIC origin of every schedule (set before go) */
    uint64_t deadline_ns;    /* no wake-up is scheduled after it; 0: none */
    uint64_t loops;          /* wake-ups per thread; 0: no limit */
    bool break_armed;
    uint64_t break_ns;       /* --break threshold */
    atomic_bool break_claimed; /* the first thread over it takes the break */
    int break_cpu;
    uint64_t break_cycle, break_latency_ns, break_time_ns;
    rt_break_trace *trace;   /* marks and stops the trace at the break; NULL: none */
} rt_shared;

typedef enum rt_thread_state { RT_STARTING, RT_READY, RT_FAILED, RT_FINISHED } rt_thread_state;

typedef struct rt_thread {
    int index, cpu;
    uint64_t interval_ns;
    int policy, priority;     /* SCHED_* and its priority */
    rt_shared *shared;
    pthread_t id;
    bool created;
    pk_hist hist;
    pk_series series;
    uint64_t missed;          /* periods skipped because a wake-up came after the next one was due */
    uint64_t last_wake_ns;    /* CLOCK_MONOTONIC of the last wake-up */
    _Atomic uint64_t loops_done, max_ns; /* read by the main thread for progress */
    _Atomic int state;        /* rt_thread_state */
    char error[160];          /* RT_FAILED, or a failure while measuring */
} rt_thread;

/* The thread function; arg is its rt_thread. It sets itself up (affinity,
 * policy, a faulted-in stack), reports RT_READY or RT_FAILED, waits for
 * shared->go (or stop), measures, and ends in RT_FINISHED (error[] set if
 * clock_nanosleep failed). Signals must be blocked when it is created. */
void *rt_thread_main(void *arg);

/* The one step of the schedule after a wake-up at now_ns that was due at
 * *next_ns: the next due time, and how many due times were skipped because
 * they had already passed (cyclictest skips them too, keeping the phase of
 * the grid, but does not count them). */
uint64_t rt_schedule_next(uint64_t *next_ns, uint64_t now_ns, uint64_t interval_ns);

#endif
