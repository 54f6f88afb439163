#include "rt_timerlat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_cpulist.h"
#include "rt_timerlat_parse.h"

#define TICK_MS 100
#define DRAIN_READS 4096 /* after the run: what is left in the buffer, bounded */

/* The tracefs settings timerlat needs, in the order they are written; put
 * back in the reverse order (current_tracer first, which stops its threads). */
enum { SET_PERIOD, SET_CPUS, SET_TRACING_ON, SET_TRACER, NSETTINGS };
static const char *const setting_files[NSETTINGS] = {"osnoise/timerlat_period_us", "osnoise/cpus", "tracing_on",
                                                      "current_tracer"};

typedef struct reader {
    rt_timerlat *r;
    int index_of_cpu[RT_MAX_CPUS]; /* -1: not measured */
    char buf[65536];
    size_t len; /* bytes of an unfinished line at the start of buf */
} reader;

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void take_line(reader *rd, const char *line, size_t len)
{
    rt_timerlat *r = rd->r;
    const char *lost = memmem(line, len, "[LOST ", 6);
    if (lost) { /* "CPU:1 [LOST 1234 EVENTS]" */
        r->lost_events += strtoull(lost + 6, NULL, 10);
        return;
    }
    rt_timerlat_sample s;
    if (!rt_timerlat_parse_line(line, len, &s) || s.cpu >= RT_MAX_CPUS || rd->index_of_cpu[s.cpu] < 0)
        return;
    rt_timerlat_cpu *c = &r->cpus[rd->index_of_cpu[s.cpu]];
    if (!c->seen) {
        c->seen = true;
        c->first_ts_ns = s.timestamp_ns;
    }
    uint64_t t = s.timestamp_ns > c->first_ts_ns ? s.timestamp_ns - c->first_ts_ns : 0;
    if (s.context == RT_TIMERLAT_IRQ)
        pk_hist_add(&c->irq, s.latency_ns, s.activation, t);
    else if (s.context == RT_TIMERLAT_THREAD)
        pk_hist_add(&c->thread, s.latency_ns, s.activation, t);
}

/* Reads what trace_pipe has; false when it has nothing now. */
static bool read_some(reader *rd, int fd)
{
    ssize_t got = read(fd, rd->buf + rd->len, sizeof rd->buf - rd->len - 1);
    if (got <= 0)
        return false;
    size_t end = rd->len + (size_t)got, start = 0;
    for (size_t i = 0; i < end; i++)
        if (rd->buf[i] == '\n') {
            take_line(rd, rd->buf + start, i - start);
            start = i + 1;
        }
    if (start == 0 && end == sizeof rd->buf - 1) /* a line longer than the buffer: not ours */
        start = end;
    memmove(rd->buf, rd->buf + start, end - start);
    rd->len = end - start;
    return true;
}

static bool set_up(rt_timerlat *r, const rt_tracefs *t, const rt_timerlat_plan *p, char old[][256], bool *changed)
{
    char values[NSETTINGS][256];
    snprintf(values[SET_PERIOD], sizeof values[0], "%llu", (unsigned long long)p->period_us);
    rt_cpulist_format(p->cpus, p->ncpus, values[SET_CPUS], sizeof values[0]);
    snprintf(values[SET_TRACING_ON], sizeof values[0], "1");
    snprintf(values[SET_TRACER], sizeof values[0], "timerlat");
    for (int i = 0; i < NSETTINGS; i++) {
        if (!rt_tracefs_read(t, setting_files[i], old[i], 256) || !rt_tracefs_write(t, setting_files[i], values[i])) {
            snprintf(r->why, sizeof r->why, "setting up timerlat failed: %s/%s: %s", t->path, setting_files[i],
                     strerror(errno));
            return false;
        }
        changed[i] = true;
    }
    return true;
}

static void put_back(const rt_tracefs *t, char old[][256], const bool *changed)
{
    for (int i = NSETTINGS - 1; i >= 0; i--)
        if (changed[i] && old[i][0])
            rt_tracefs_write(t, setting_files[i], old[i]);
}

static bool allocate(rt_timerlat *r, const rt_timerlat_plan *p)
{
    r->cpus = calloc((size_t)p->ncpus, sizeof *r->cpus);
    if (!r->cpus)
        return false;
    r->ncpus = p->ncpus;
    for (int i = 0; i < p->ncpus; i++) {
        r->cpus[i].cpu = p->cpus[i];
        if (!pk_hist_init(&r->cpus[i].irq, p->bucket_ns, (size_t)p->buckets, 10) ||
            !pk_hist_init(&r->cpus[i].thread, p->bucket_ns, (size_t)p->buckets, 10))
            return false;
    }
    return true;
}

static void follow(rt_timerlat *r, reader *rd, int fd, const rt_timerlat_plan *p,
                   const volatile sig_atomic_t *interrupted, rt_timerlat_tick tick, void *ctx)
{
    uint64_t start = monotonic_ns(), last_tick = start, now = start;
    while (now - start < p->duration_ns && !*interrupted) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        bool got = false;
        if (poll(&pfd, 1, TICK_MS) > 0)
            while (read_some(rd, fd) && monotonic_ns() - now < TICK_MS * 1000000ull)
                got = true;
        if (!got) { /* ready but empty (an error, or a plain file in the tests): do not spin */
            struct timespec pause = {0, 10000000};
            nanosleep(&pause, NULL);
        }
        now = monotonic_ns();
        if (tick && now - last_tick >= TICK_MS * 1000000ull) {
            tick(ctx, r, now - start);
            last_tick = now;
        }
    }
    r->interrupted = *interrupted != 0;
    r->duration_s = (double)(now - start) / 1e9;
    for (int i = 0; i < DRAIN_READS && read_some(rd, fd); i++) {
    }
}

bool rt_timerlat_run(rt_timerlat *r, const rt_tracefs *t, const rt_timerlat_plan *p,
                     const volatile sig_atomic_t *interrupted, rt_timerlat_tick tick, void *ctx)
{
    memset(r, 0, sizeof *r);
    r->period_us = p->period_us;
    char tracers[512];
    if (!rt_tracer_usable(t, "timerlat", "CONFIG_TIMERLAT_TRACER", p->config_set, tracers, sizeof tracers, r->why,
                          sizeof r->why))
        return false;
    r->available = true;
    reader *rd = calloc(1, sizeof *rd);
    if (!rd || !allocate(r, p)) {
        free(rd);
        snprintf(r->why, sizeof r->why, "out of memory for the timerlat histograms");
        return false;
    }
    for (int c = 0; c < RT_MAX_CPUS; c++)
        rd->index_of_cpu[c] = -1;
    for (int i = 0; i < p->ncpus; i++)
        rd->index_of_cpu[p->cpus[i]] = i;
    rd->r = r;

    char old[NSETTINGS][256] = {{0}};
    bool changed[NSETTINGS] = {false};
    char pipe_path[512];
    rt_tracefs_file(t, "trace_pipe", pipe_path, sizeof pipe_path);
    int fd = -1;
    if (set_up(r, t, p, old, changed)) {
        fd = open(pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            snprintf(r->why, sizeof r->why, "cannot read %.300s: %s", pipe_path, strerror(errno));
    }
    if (fd >= 0) {
        r->ran = true;
        follow(r, rd, fd, p, interrupted, tick, ctx);
        close(fd);
    }
    put_back(t, old, changed);
    free(rd);
    return r->ran;
}

void rt_timerlat_free(rt_timerlat *r)
{
    for (int i = 0; i < r->ncpus; i++) {
        pk_hist_free(&r->cpus[i].irq);
        pk_hist_free(&r->cpus[i].thread);
    }
    free(r->cpus);
    r->cpus = NULL;
    r->ncpus = 0;
}
