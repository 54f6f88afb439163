/* `portkit-target rt [options]`: the sequence of a run. Options, the
 * system's facts, privileges (exit 3 with the fix), histograms, then
 * cpu_dma_latency and tracefs; the threads start together, the main thread
 * shows progress and watches for SIGINT/SIGTERM, the threads end by loops,
 * duration, break or stop; then the break's trace, timerlat, everything put
 * back, and the document (rt_document.c). Every wait is bounded. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pk_cli.h"
#include "pk_options.h"
#include "rt_modes.h"
#include "rt_run.h"

#define THREAD_STACK_BYTES (256 * 1024) /* locked and faulted in: keep it small */
#define READY_TIMEOUT_NS 5000000000ull  /* threads pin themselves and set their policy */
#define STOP_GRACE_NS 2000000000ull     /* beyond the longest period, for threads to end */
#define TICK_NS 100000000ull            /* the main thread's look at the run */
#define PROGRESS_NS 250000000ull        /* a few progress reports a second */

volatile sig_atomic_t rt_interrupted;

static void on_signal(int sig)
{
    rt_interrupted = sig;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the main thread's sleeps end at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
    nanosleep(&ts, NULL); /* a signal ends it early: the caller looks again */
}

static void iso8601_now(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%.20s.%03dZ", date, (int)(ts.tv_nsec / 1000000 % 1000));
}

static int count_in_state(const rt_run *run, rt_thread_state state)
{
    int n = 0;
    for (int i = 0; i < run->nthreads; i++)
        n += atomic_load(&run->threads[i].state) == (int)state;
    return n;
}

static const char *first_error(const rt_run *run)
{
    for (int i = 0; i < run->nthreads; i++)
        if (run->threads[i].error[0])
            return run->threads[i].error;
    return NULL;
}

/* Joins the threads that were created; only once they have all finished. */
static void join_threads(rt_run *run)
{
    for (int i = 0; i < run->nthreads; i++)
        if (run->threads[i].created) {
            pthread_join(run->threads[i].id, NULL);
            run->threads[i].created = false;
        }
}

/* Waits (bounded) until every created thread has finished after a stop. */
static bool wait_finished(rt_run *run, uint64_t grace_ns)
{
    uint64_t until = monotonic_ns() + grace_ns;
    int created = 0;
    for (int i = 0; i < run->nthreads; i++)
        created += run->threads[i].created;
    while (count_in_state(run, RT_FINISHED) + count_in_state(run, RT_FAILED) < created) {
        if (monotonic_ns() > until)
            return false;
        sleep_ns(1000000);
    }
    return true;
}

/* Creates the threads with every signal blocked (the main thread alone
 * takes SIGINT/SIGTERM) and waits until all are set up. */
static int start_threads(rt_run *run)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
    int err = 0;
    for (int i = 0; i < run->nthreads && !err; i++) {
        err = pthread_create(&run->threads[i].id, &attr, rt_thread_main, &run->threads[i]);
        run->threads[i].created = !err;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    uint64_t until = monotonic_ns() + READY_TIMEOUT_NS;
    while (!err && count_in_state(run, RT_READY) < run->nthreads && !count_in_state(run, RT_FAILED) &&
           monotonic_ns() < until)
        sleep_ns(1000000);
    if (!err && count_in_state(run, RT_READY) == run->nthreads) {
        run->start_ns = monotonic_ns();
        run->shared.start_ns = run->start_ns;
        run->shared.deadline_ns = run->opt.duration_ns ? run->start_ns + run->opt.duration_ns : 0;
        iso8601_now(run->started, sizeof run->started);
        atomic_store(&run->shared.go, true);
        return PK_CONTINUE;
    }
    atomic_store(&run->shared.stop, true);
    if (wait_finished(run, STOP_GRACE_NS))
        join_threads(run);
    if (err)
        return pk_fail(PK_EXIT_ENV, RT_CMD, "cannot create a measuring thread: %s", strerror(err));
    const char *why = first_error(run);
    return pk_fail(PK_EXIT_ENV, RT_CMD, "%s", why ? why : "the measuring threads did not start within 5 s");
}

static uint64_t longest_interval_ns(const rt_run *run)
{
    return rt_thread_interval_ns(&run->opt, run->nthreads - 1);
}

/* The main thread during the run: progress, signals, and the end. */
static void watch(rt_run *run)
{
    uint64_t stop_at = 0;
    bool hung = false;
    while (count_in_state(run, RT_FINISHED) < run->nthreads) {
        sleep_ns(TICK_NS);
        uint64_t now = monotonic_ns();
        if (rt_interrupted && !atomic_load(&run->shared.stop))
            atomic_store(&run->shared.stop, true);
        if (atomic_load(&run->shared.stop) && !stop_at)
            stop_at = now;
        if (stop_at && now - stop_at > longest_interval_ns(run) + STOP_GRACE_NS) {
            hung = true;
            break;
        }
        if (now - run->last_progress_ns >= PROGRESS_NS) {
            rt_progress(run, "measure", now - run->start_ns, false);
            run->last_progress_ns = now;
        }
    }
    /* The run ends at the last wake-up (the main thread notices later). */
    run->end_ns = run->start_ns;
    for (int i = 0; i < run->nthreads; i++)
        if (run->threads[i].last_wake_ns > run->end_ns)
            run->end_ns = run->threads[i].last_wake_ns;
    if (hung || run->end_ns == run->start_ns)
        run->end_ns = monotonic_ns();
    rt_progress(run, "measure", run->end_ns - run->start_ns, true);
    if (hung) {
        run->stopped = RT_ERROR;
        snprintf(run->error, sizeof run->error, "a measuring thread did not stop within %.1f s",
                 (double)(longest_interval_ns(run) + STOP_GRACE_NS) / 1e9);
        return;
    }
    join_threads(run);
    const char *err = first_error(run);
    if (err) {
        run->stopped = RT_ERROR;
        snprintf(run->error, sizeof run->error, "%s", err);
    } else if (atomic_load(&run->shared.break_claimed)) {
        run->stopped = RT_BREAK;
    } else if (rt_interrupted) {
        run->stopped = RT_INTERRUPTED;
    } else {
        run->stopped = RT_COMPLETED;
    }
}

static void timerlat_tick(void *ctx, const rt_timerlat *r, uint64_t elapsed_ns)
{
    (void)r;
    rt_run *run = ctx;
    rt_progress(run, "timerlat", elapsed_ns, false);
}

/* As long as the measurement ran (or was planned to), on the same CPUs,
 * with the first thread's period. */
static void run_timerlat(rt_run *run)
{
    const rt_options *o = &run->opt;
    uint64_t duration = run->end_ns - run->start_ns;
    rt_timerlat_plan plan = {
        .cpus = o->cpus,
        .ncpus = o->ncpus,
        .period_us = o->interval_us,
        .duration_ns = duration > 0 ? duration : o->interval_us * 1000u,
        .bucket_ns = o->bucket_ns,
        .buckets = o->buckets,
        .config_set = run->sysinfo ? run->sysinfo->timerlat_config : -1,
    };
    run->timerlat_tried = true;
    if (!run->tracefs_ok) {
        snprintf(run->timerlat.why, sizeof run->timerlat.why, "%s", run->tracefs.why);
        return;
    }
    rt_timerlat_run(&run->timerlat, &run->tracefs, &plan, &rt_interrupted, timerlat_tick, run);
    rt_progress(run, "timerlat", (uint64_t)(run->timerlat.duration_s * 1e9), true);
    if (run->timerlat.interrupted && run->stopped == RT_COMPLETED)
        run->stopped = RT_INTERRUPTED;
}

int pk_rt_measure(int argc, char **argv)
{
    rt_run *run = calloc(1, sizeof *run);
    if (!run)
        return pk_fail(PK_EXIT_ENV, RT_CMD, "out of memory");
    run->dma_fd = -1;
    rt_break_trace_init(&run->trace);
    int status = rt_parse_options(argc, argv, &run->opt);
    if (status == PK_CONTINUE) {
        catch_signals();
        run->status_line = !run->opt.progress && isatty(STDERR_FILENO);
        run->sysinfo = rt_sysinfo_collect();
        status = rt_check_privileges(run);
    }
    if (status == PK_CONTINUE)
        status = rt_allocate_threads(run);
    if (status == PK_CONTINUE) {
        rt_hold_dma_latency(run);
        rt_prepare_tracing(run);
        run->shared.loops = run->opt.loops;
        run->shared.break_armed = run->opt.break_given;
        run->shared.break_ns = run->opt.break_us * 1000u;
        status = start_threads(run);
    }
    if (status != PK_CONTINUE) {
        rt_restore(run);
        rt_free_run(run);
        return status;
    }
    watch(run);
    if (run->stopped == RT_ERROR && count_in_state(run, RT_FINISHED) < run->nthreads) {
        /* A thread that does not end still owns its histogram: report and
         * leave, without freeing what it may touch. */
        rt_restore(run);
        return rt_write_document(run);
    }
    if (run->stopped == RT_BREAK)
        rt_save_break_trace(run);
    rt_end_tracing(run);
    if (run->opt.timerlat && run->stopped == RT_COMPLETED)
        run_timerlat(run);
    rt_restore(run);
    status = rt_write_document(run);
    rt_free_run(run);
    return status;
}
