/* The harness of every load: bounded in time, ended early by SIGINT, SIGTERM
 * or SIGHUP with the document of what was achieved so far, and checked
 * afterwards for processes and descriptors left behind. */
#include "load_run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load_procs.h"
#include "load_report.h"
#include "load_sys.h"
#include "pk_cli.h"
#include "pk_options.h"

bool pk_load_running(pk_load_run *run)
{
    return !atomic_load(&run->stop);
}

struct timespec pk_load_poll_slice(uint64_t t_ns)
{
    uint64_t now = pk_now_ns(), step = t_ns > now ? t_ns - now : 0;
    if (step > PK_LOAD_POLL_MS * 1000000ull)
        step = PK_LOAD_POLL_MS * 1000000ull;
    return (struct timespec){(time_t)(step / 1000000000u), (long)(step % 1000000000u)};
}

void pk_load_fail(pk_load_run *run, const char *fmt, ...)
{
    pthread_mutex_lock(&run->lock);
    if (!run->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(run->error, sizeof run->error, fmt, ap);
        va_end(ap);
        run->failed = true;
    }
    pthread_mutex_unlock(&run->lock);
    atomic_store(&run->ended, true);
}

int pk_load_own_fd(pk_load_run *run, int fd)
{
    if (fd < 0 || run->fd_count < PK_LOAD_MAX_FDS)
        return fd < 0 ? fd : (run->fds[run->fd_count++] = fd);
    close(fd);
    errno = EMFILE;
    return -1;
}

/* Unless a worker may still use them. */
static void close_owned(pk_load_run *run)
{
    if (run->stuck)
        return;
    for (size_t i = 0; i < run->fd_count; i++)
        close(run->fds[i]);
    run->fd_count = 0;
}

void pk_load_finish(pk_load_run *run)
{
    atomic_store(&run->ended, true);
}

/* The stop signals are blocked in every thread from the start (workers
 * inherit the mask) and taken by the main thread with sigtimedwait: no
 * handler runs inside a worker, and a signal is never lost between checks.
 * They stay blocked until the agent exits, so that a second SIGTERM while
 * the load is being stopped cannot kill it before its document is out. */
static void block_stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, set, NULL);
    /* A reader that went away must not kill the agent mid-document, nor a
     * load writing to a closed socket or pipe. */
    struct sigaction ignore = {.sa_handler = SIG_IGN};
    sigaction(SIGPIPE, &ignore, NULL);
}

/* Waits until the deadline, a stop signal or the load's own end; true when
 * a signal ended it. */
static bool wait_for_end(pk_load_run *run, const pk_load_kind *kind, const sigset_t *set, uint64_t deadline)
{
    while (!atomic_load(&run->ended)) {
        if (pk_now_ns() >= deadline)
            return false;
        struct timespec ts = pk_load_poll_slice(deadline);
        if (sigtimedwait(set, NULL, &ts) > 0)
            return true;
        if (kind->poll)
            kind->poll(run);
    }
    return false;
}

static void iso_utc_now(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, size - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

int pk_load_run_kind(const pk_load_kind *kind, const pk_load_options *opt)
{
    sigset_t set;
    block_stop_signals(&set);
    bool adopts = pk_load_become_subreaper(); /* without it, orphans go to init */

    pk_load_run run = {.opt = opt};
    pthread_mutex_init(&run.lock, NULL);
    atomic_init(&run.stop, false);
    atomic_init(&run.ended, false);
    pk_load_report report = {.kind = kind, .opt = opt, .adopts_orphans = adopts};
    pk_load_put_double(&report.params, "duration_s", opt->duration_s);
    kind->params(opt, &report.params);

    int descriptors_before = pk_count_descriptors();
    pk_proc_stat before, after;
    pk_proc_stat_read(&before);
    double cpu_before = pk_process_cpu_seconds();
    iso_utc_now(report.started, sizeof report.started);
    uint64_t t0 = pk_now_ns();
    int status = kind->start(&run);
    if (status != PK_CONTINUE) {
        if (run.failed) /* a worker's failure, not yet reported */
            pk_fail(status, PK_LOAD_CMD, "%s: %s", kind->name, run.error);
        close_owned(&run);
        free(run.state);
        pk_proc_stat_free(&before);
        pk_load_end_processes(0, 0, NULL, NULL);
        return status;
    }
    bool interrupted = wait_for_end(&run, kind, &set, t0 + (uint64_t)(opt->duration_s * 1e9));
    atomic_store(&run.stop, true);
    kind->stop(&run);
    close_owned(&run);
    run.seconds = (double)(pk_now_ns() - t0) / 1e9;
    /* Whatever the kind left is ended now; what outlives a second of
     * SIGKILL is left behind, and fails the run. */
    report.processes_left = pk_load_end_processes(0, 0, NULL, NULL);
    double cpu_after = pk_process_cpu_seconds();
    pk_proc_stat_read(&after);
    int descriptors_after = pk_count_descriptors();

    report.duration_s = run.seconds;
    report.cpu_percent = run.seconds > 0 ? 100.0 * (cpu_after - cpu_before) / run.seconds : NAN;
    report.stat_before = &before;
    report.stat_after = &after;
    report.descriptors_left =
        descriptors_before < 0 || descriptors_after < 0 ? -1 : descriptors_after - descriptors_before;
    if (!run.failed && report.processes_left)
        pk_load_fail(&run, "%zu processes of the load did not end", report.processes_left);
    else if (!run.failed && report.descriptors_left > 0)
        pk_load_fail(&run, "%d descriptors of the load were left open", report.descriptors_left);
    report.stopped = run.failed ? "error" : interrupted ? "interrupted" : "completed";
    report.error = run.failed ? run.error : NULL;
    kind->achieved(&run, &report.achieved);

    status = pk_load_write_report(stdout, &report);
    pk_proc_stat_free(&before);
    pk_proc_stat_free(&after);
    if (!run.stuck) /* else threads that did not stop still use it */
        free(run.state);
    if (run.failed && status == PK_EXIT_OK)
        status = pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "%s: %s", kind->name, run.error);
    return status;
}
