/* Setting a run up and putting everything back: the real-time policy and
 * locked memory (or exit 3 with the fix), the threads' histograms,
 * /dev/cpu_dma_latency, tracefs for --break, --trace-events and --timerlat. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pk_cli.h"
#include "pk_options.h"
#include "rt_run.h"

#define WORST_SAMPLES 10

void rt_note(rt_run *run, const char *fmt, ...)
{
    if (run->nnotes == RT_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->notes[run->nnotes++], sizeof run->notes[0], fmt, ap);
    va_end(ap);
}

static int sched_policy(rt_policy p)
{
    return p == RT_POLICY_FIFO ? SCHED_FIFO : p == RT_POLICY_RR ? SCHED_RR : SCHED_OTHER;
}

/* Whether this thread may take the policy: tried, then undone. */
static bool policy_permitted(const rt_options *o, int *err)
{
    struct sched_param old, want = {.sched_priority = o->priority};
    int old_policy = sched_getscheduler(0);
    if (old_policy < 0 || sched_getparam(0, &old) != 0 || sched_setscheduler(0, sched_policy(o->policy), &want) != 0) {
        *err = errno;
        return false;
    }
    sched_setscheduler(0, old_policy, &old);
    return true;
}

int rt_check_privileges(rt_run *run)
{
    const rt_options *o = &run->opt;
    int sched_err = 0, lock_err = 0;
    bool sched_ok = o->policy == RT_POLICY_OTHER || policy_permitted(o, &sched_err);
    if (!o->no_rt) {
        run->mlocked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
        lock_err = run->mlocked ? 0 : errno;
    }
    run->rt = o->policy != RT_POLICY_OTHER && run->mlocked;
    if (sched_ok && (o->no_rt || run->mlocked))
        return PK_CONTINUE;
    if (run->mlocked)
        munlockall();
    char policy[64];
    snprintf(policy, sizeof policy, "SCHED_%s priority %d", o->policy == RT_POLICY_FIFO ? "FIFO" : "RR", o->priority);
    if (!sched_ok && geteuid() == 0)
        return pk_fail(PK_EXIT_ENV, RT_CMD,
                       "the kernel refuses %s even to root (%s): this cgroup has no real-time runtime "
                       "(cpu.rt_runtime_us) or RT throttling allows none; run from the root cgroup, or use --no-rt",
                       policy, strerror(sched_err));
    if (!sched_ok && lock_err)
        return pk_fail(PK_EXIT_ENV, RT_CMD,
                       "no permission for %s (%s) nor to lock memory (mlockall: %s): run as root, or grant "
                       "CAP_SYS_NICE and CAP_IPC_LOCK (or ulimit -r %d and ulimit -l unlimited), or use --no-rt",
                       policy, strerror(sched_err), strerror(lock_err), o->priority);
    if (!sched_ok)
        return pk_fail(PK_EXIT_ENV, RT_CMD,
                       "no permission for %s (%s): run as root, or grant CAP_SYS_NICE (or ulimit -r %d), "
                       "or use --no-rt",
                       policy, strerror(sched_err), o->priority);
    return pk_fail(PK_EXIT_ENV, RT_CMD,
                   "no permission to lock memory (mlockall: %s): run as root, or grant CAP_IPC_LOCK "
                   "(or ulimit -l unlimited), or use --no-rt",
                   strerror(lock_err));
}

int rt_allocate_threads(rt_run *run)
{
    const rt_options *o = &run->opt;
    run->threads = calloc((size_t)o->ncpus, sizeof *run->threads);
    bool ok = run->threads != NULL;
    for (int i = 0; ok && i < o->ncpus; i++) {
        rt_thread *t = &run->threads[i];
        t->index = i;
        t->cpu = o->cpus[i];
        t->interval_ns = rt_thread_interval_ns(o, i);
        t->policy = sched_policy(o->policy);
        t->priority = o->priority;
        t->shared = &run->shared;
        run->nthreads = i + 1;
        ok = pk_hist_init(&t->hist, o->bucket_ns, (size_t)o->buckets, WORST_SAMPLES) &&
             pk_series_init(&t->series, PK_SERIES_DEFAULT_CAP);
    }
    if (ok)
        return PK_CONTINUE;
    unsigned long long mb = (unsigned long long)o->ncpus * o->buckets * 8 / 1000000;
    return pk_fail(PK_EXIT_ENV, RT_CMD, "cannot allocate %d histograms of %llu buckets (%llu MB)%s", o->ncpus,
                   (unsigned long long)o->buckets, mb,
                   run->mlocked ? " with memory locked: raise ulimit -l, or use fewer --buckets" : "");
}

void rt_hold_dma_latency(rt_run *run)
{
    run->dma_fd = -1;
    if (!run->opt.dma_latency) {
        snprintf(run->dma_why, sizeof run->dma_why, "--no-dma-latency");
        return;
    }
    /* PM QoS: while this file is open with 0 written, no CPU enters an idle
     * state with a non-zero exit latency; closing it ends the request. */
    int fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
    int32_t zero = 0;
    if (fd < 0 || write(fd, &zero, sizeof zero) != (ssize_t)sizeof zero) {
        snprintf(run->dma_why, sizeof run->dma_why, "cannot hold /dev/cpu_dma_latency at 0: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    run->dma_fd = fd;
}

void rt_prepare_tracing(rt_run *run)
{
    const rt_options *o = &run->opt;
    if (!o->break_given && !o->nevent_groups && !o->timerlat)
        return;
    run->tracefs_ok = rt_tracefs_mount(&run->tracefs);
    if (run->tracefs.mounted_here)
        rt_note(run, "tracefs was not mounted: mounted on %s for this run and unmounted after", run->tracefs.path);
    if (o->break_given && rt_break_trace_prepare(&run->trace, &run->tracefs))
        run->shared.trace = &run->trace;
    if (o->nevent_groups) {
        run->events_enabled =
            rt_trace_events_enable(&run->events, &run->tracefs, (const char *const *)o->event_groups, o->nevent_groups);
        if (!run->events_enabled)
            rt_note(run, "--trace-events: not enabled: %s", run->events.why);
    }
}

void rt_save_break_trace(rt_run *run)
{
    if (!run->trace.ready)
        return;
    char path[4096];
    if (run->opt.trace_file)
        snprintf(path, sizeof path, "%s", run->opt.trace_file);
    else {
        char cwd[3800];
        snprintf(path, sizeof path, "%s/portkit-rt-trace-%ld.txt", getcwd(cwd, sizeof cwd) ? cwd : ".",
                 (long)getpid());
    }
    rt_break_trace_save(&run->trace, &run->tracefs, path);
}

void rt_end_tracing(rt_run *run)
{
    rt_break_trace_restore(&run->trace);
    run->shared.trace = NULL;
    if (run->events_enabled) {
        rt_trace_events_restore(&run->events, &run->tracefs);
        run->events_enabled = false;
    }
}

void rt_restore(rt_run *run)
{
    rt_end_tracing(run);
    if (run->dma_fd >= 0) {
        close(run->dma_fd);
        run->dma_fd = -1;
    }
    rt_tracefs_unmount(&run->tracefs);
}

void rt_free_run(rt_run *run)
{
    for (int i = 0; i < run->nthreads; i++) {
        pk_hist_free(&run->threads[i].hist);
        pk_series_free(&run->threads[i].series);
    }
    free(run->threads);
    rt_timerlat_free(&run->timerlat);
    rt_sysinfo_free(run->sysinfo);
    if (run->mlocked)
        munlockall();
    free(run);
}
