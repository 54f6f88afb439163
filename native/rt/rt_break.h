/* --break: what happens in tracefs when a latency reaches the threshold.
 * Before the run trace_marker is opened and tracing switched on; the
 * measuring thread that hits the threshold writes a marker and switches
 * tracing off (a few system calls, so the trace stops within microseconds
 * of the event); afterwards the trace buffer is copied into a file and
 * tracing_on is put back as it was. */
#ifndef RT_BREAK_H
#define RT_BREAK_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_tracefs.h"

typedef struct rt_break_trace {
    bool ready;        /* the files are open: a hit marks and stops the trace */
    int marker_fd;     /* trace_marker, open for the hit */
    char on_path[512]; /* tracing_on (opened at each use: its writes ignore the offset, a test's file does not) */
    char old_on[8];    /* tracing_on before the run */
    char why[300];     /* not ready: why no trace can be taken */
    bool saved;
    char file[4096];   /* where the trace was saved */
    char save_why[300]; /* not saved: why */
} rt_break_trace;

/* Nothing open yet (the state rt_break_trace_restore accepts). */
void rt_break_trace_init(rt_break_trace *b);
/* Opens the files and switches tracing on. False with b->why set. */
bool rt_break_trace_prepare(rt_break_trace *b, const rt_tracefs *t);
/* In the measuring thread, at the hit: the marker
 * "portkit: latency N us on cpu C cycle K", then tracing off. */
void rt_break_trace_hit(rt_break_trace *b, int cpu, uint64_t cycle, uint64_t latency_ns);
/* Copies the trace into path (b->file, b->saved, b->save_why). */
void rt_break_trace_save(rt_break_trace *b, const rt_tracefs *t, const char *path);
/* tracing_on as it was; the files closed. */
void rt_break_trace_restore(rt_break_trace *b);

#endif
