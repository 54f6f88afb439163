#include "rt_break.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_sysfs.h"

#define MAX_TRACE_BYTES (1ull << 30) /* a trace buffer is megabytes; stop well before a disk fills */

/* A write whose failure changes nothing for the caller (the document says
 * what was measured either way). */
static void write_best_effort(int fd, const char *text, size_t len)
{
    ssize_t r = write(fd, text, len);
    (void)r;
}

static int open_in(const rt_tracefs *t, const char *file, int flags)
{
    char path[512];
    rt_tracefs_file(t, file, path, sizeof path);
    return open(path, flags | O_CLOEXEC);
}

void rt_break_trace_init(rt_break_trace *b)
{
    memset(b, 0, sizeof *b);
    b->marker_fd = -1;
}

bool rt_break_trace_prepare(rt_break_trace *b, const rt_tracefs *t)
{
    rt_break_trace_init(b);
    if (!t->path[0]) {
        snprintf(b->why, sizeof b->why, "%s", t->why);
        return false;
    }
    rt_tracefs_file(t, "tracing_on", b->on_path, sizeof b->on_path);
    if (!rt_read_text(b->on_path, b->old_on, sizeof b->old_on) ||
        (b->marker_fd = open_in(t, "trace_marker", O_WRONLY)) < 0 || !rt_write_text(b->on_path, "1")) {
        snprintf(b->why, sizeof b->why, "cannot use %.200s (trace_marker, tracing_on): %s", t->path, strerror(errno));
        rt_break_trace_restore(b);
        return false;
    }
    b->ready = true;
    return true;
}

void rt_break_trace_hit(rt_break_trace *b, int cpu, uint64_t cycle, uint64_t latency_ns)
{
    if (!b || !b->ready)
        return;
    char marker[128];
    int n = snprintf(marker, sizeof marker, "portkit: latency %" PRIu64 ".%03u us on cpu %d cycle %" PRIu64 "\n",
                     latency_ns / 1000, (unsigned)(latency_ns % 1000), cpu, cycle);
    write_best_effort(b->marker_fd, marker, (size_t)n);
    rt_write_text(b->on_path, "0");
}

void rt_break_trace_save(rt_break_trace *b, const rt_tracefs *t, const char *path)
{
    snprintf(b->file, sizeof b->file, "%s", path);
    b->saved = false;
    b->save_why[0] = '\0';
    int in = open_in(t, "trace", O_RDONLY);
    if (in < 0) {
        snprintf(b->save_why, sizeof b->save_why, "cannot read %s/trace: %s", t->path, strerror(errno));
        return;
    }
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        snprintf(b->save_why, sizeof b->save_why, "cannot create %s: %s", path, strerror(errno));
        close(in);
        return;
    }
    char buf[65536];
    ssize_t got = 0;
    uint64_t total = 0;
    while (total < MAX_TRACE_BYTES && (got = read(in, buf, sizeof buf)) > 0) {
        if (write(out, buf, (size_t)got) != got) {
            got = -1;
            break;
        }
        total += (uint64_t)got;
    }
    int e = errno;
    close(in);
    if (close(out) != 0 && got >= 0) {
        got = -1;
        e = errno;
    }
    if (got < 0)
        snprintf(b->save_why, sizeof b->save_why, "copying the trace into %s failed: %s", path, strerror(e));
    else
        b->saved = true;
}

void rt_break_trace_restore(rt_break_trace *b)
{
    if (b->ready && b->old_on[0])
        rt_write_text(b->on_path, b->old_on);
    if (b->marker_fd >= 0)
        close(b->marker_fd);
    b->marker_fd = -1;
    b->ready = false;
}
