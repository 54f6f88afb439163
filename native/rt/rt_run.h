/* One `portkit-target rt` run: what was set up, measured and changed, shared
 * by the steps in rt_measure.c (the sequence), rt_setup.c (privileges,
 * memory, cpu_dma_latency, tracefs; and putting them back), rt_progress.c
 * and rt_document.c (portkit.rt/1). */
#ifndef RT_RUN_H
#define RT_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_break.h"
#include "rt_options.h"
#include "rt_sysinfo.h"
#include "rt_thread.h"
#include "rt_timerlat.h"
#include "rt_trace_events.h"
#include "rt_tracefs.h"

#define RT_MAX_NOTES 8

typedef enum rt_stop { RT_COMPLETED, RT_INTERRUPTED, RT_BREAK, RT_ERROR } rt_stop;

typedef struct rt_run {
    rt_options opt;
    rt_sysinfo *sysinfo;
    rt_shared shared;
    rt_thread *threads;
    int nthreads;
    bool mlocked;        /* mlockall(MCL_CURRENT | MCL_FUTURE) succeeded */
    bool rt;             /* a real-time policy with memory locked */
    int dma_fd;          /* /dev/cpu_dma_latency held at 0, or -1 */
    char dma_why[160];   /* not held: why */
    char started[40];    /* ISO-8601 UTC of the start */
    uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC */
    rt_stop stopped;
    char error[256];     /* RT_ERROR: what failed */
    rt_tracefs tracefs;  /* found or mounted when --break, --trace-events or --timerlat need it */
    bool tracefs_ok;
    rt_break_trace trace;
    rt_trace_events events;
    bool events_enabled;
    rt_timerlat timerlat;
    bool timerlat_tried;
    char notes[RT_MAX_NOTES][320];
    int nnotes;
    bool status_line;    /* a live line on stderr (a terminal) */
    uint64_t last_progress_ns;
} rt_run;

/* Set by SIGINT/SIGTERM (the signal number); the run stops and reports. */
extern volatile sig_atomic_t rt_interrupted;

void rt_note(rt_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rt_setup.c. Each returns PK_CONTINUE or an exit code after one line. */
int rt_check_privileges(rt_run *run);   /* policy and mlockall, or exit 3 with the fix */
int rt_allocate_threads(rt_run *run);   /* threads, histograms, series */
void rt_hold_dma_latency(rt_run *run);  /* best effort: dma_fd, or dma_why */
void rt_prepare_tracing(rt_run *run);   /* tracefs, --break's files, --trace-events */
void rt_save_break_trace(rt_run *run);  /* after a break: the trace into its file */
void rt_end_tracing(rt_run *run);       /* --break's tracing_on and --trace-events put back (before
                                           timerlat, so neither adds to its trace); idempotent */
void rt_restore(rt_run *run);           /* everything changed, put back; idempotent */
void rt_free_run(rt_run *run);

/* rt_progress.c: a status line on a terminal, or --progress JSON lines. */
void rt_progress(rt_run *run, const char *phase, uint64_t elapsed_ns, bool final);

/* rt_document.c: the document (--json) or its text form on stdout; the
 * exit code. */
int rt_write_document(rt_run *run);

#endif
