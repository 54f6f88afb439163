#include "rt_thread.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define PREFAULT_STACK_BYTES (64 * 1024)
#define GO_POLL_NS 1000000 /* 1 ms while waiting for the other threads */

uint64_t rt_schedule_next(uint64_t *next_ns, uint64_t now_ns, uint64_t interval_ns)
{
    *next_ns += interval_ns;
    if (now_ns <= *next_ns)
        return 0;
    uint64_t skipped = (now_ns - *next_ns + interval_ns - 1) / interval_ns;
    *next_ns += skipped * interval_ns;
    return skipped;
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec to_timespec(uint64_t ns)
{
    return (struct timespec){.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
}

/* Touches the stack this thread will use, so that no page fault lands in a
 * measurement (the pages stay: memory is locked). */
static void prefault_stack(void)
{
    volatile char stack[PREFAULT_STACK_BYTES];
    for (size_t i = 0; i < sizeof stack; i += 512)
        stack[i] = 0;
}

static bool set_up(rt_thread *t)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(t->cpu, &set);
    int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (e) {
        snprintf(t->error, sizeof t->error, "cannot pin a thread to CPU %d: %s", t->cpu, strerror(e));
        return false;
    }
    struct sched_param sp = {.sched_priority = t->priority};
    e = pthread_setschedparam(pthread_self(), t->policy, &sp);
    if (e) {
        snprintf(t->error, sizeof t->error, "cannot set the scheduling policy on CPU %d: %s", t->cpu, strerror(e));
        return false;
    }
    /* Normal threads' timers are late by up to their slack (50 us by
     * default); real-time threads have none. 1 ns makes --no-rt measure the
     * scheduler, not the slack. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    prefault_stack();
    return true;
}

static void take_break(rt_thread *t, uint64_t cycle, uint64_t latency_ns, uint64_t time_ns)
{
    rt_shared *s = t->shared;
    if (atomic_exchange(&s->break_claimed, true))
        return;
    s->break_cpu = t->cpu;
    s->break_cycle = cycle;
    s->break_latency_ns = latency_ns;
    s->break_time_ns = time_ns;
    rt_break_trace_hit(s->trace, t->cpu, cycle, latency_ns);
    atomic_store(&s->stop, true);
}

static void measure(rt_thread *t)
{
    rt_shared *s = t->shared;
    uint64_t next = s->start_ns + t->interval_ns, cycle = 0;
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        if (s->deadline_ns && next > s->deadline_ns)
            break;
        struct timespec due = to_timespec(next);
        int e;
        while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL)) == EINTR) {
        }
        if (e) {
            snprintf(t->error, sizeof t->error, "clock_nanosleep failed on CPU %d: %s", t->cpu, strerror(e));
            return;
        }
        uint64_t now = monotonic_ns();
        uint64_t latency = now > next ? now - next : 0; /* an absolute sleep never ends early */
        t->last_wake_ns = now;
        pk_hist_add(&t->hist, latency, cycle, now - s->start_ns);
        pk_series_add(&t->series, latency);
        atomic_store_explicit(&t->loops_done, cycle + 1, memory_order_relaxed);
        if (latency > atomic_load_explicit(&t->max_ns, memory_order_relaxed))
            atomic_store_explicit(&t->max_ns, latency, memory_order_relaxed);
        if (s->break_armed && latency >= s->break_ns)
            take_break(t, cycle, latency, now - s->start_ns);
        t->missed += rt_schedule_next(&next, now, t->interval_ns);
        if (++cycle == s->loops)
            break;
    }
}

void *rt_thread_main(void *arg)
{
    rt_thread *t = arg;
    if (!set_up(t)) {
        atomic_store(&t->state, RT_FAILED);
        return NULL;
    }
    atomic_store(&t->state, RT_READY);
    struct timespec poll = to_timespec(GO_POLL_NS);
    while (!atomic_load(&t->shared->go) && !atomic_load(&t->shared->stop))
        nanosleep(&poll, NULL);
    if (atomic_load(&t->shared->go))
        measure(t);
    atomic_store(&t->state, RT_FINISHED);
    return NULL;
}
