/* --trace-events sched,irq: event groups switched on for the run and put
 * back afterwards exactly as they were, event by event where a group was
 * partly enabled ("X" in its enable file). */
#ifndef RT_TRACE_EVENTS_H
#define RT_TRACE_EVENTS_H

#include <stdbool.h>

#include "rt_tracefs.h"

#define RT_MAX_SAVED_EVENTS 1024

typedef struct rt_trace_events {
    int nsaved;
    struct {
        char file[128]; /* events/GROUP[/EVENT]/enable, relative to tracefs */
    } saved[RT_MAX_SAVED_EVENTS]; /* each was "0" before */
    char why[300];                /* when enabling failed */
} rt_trace_events;

/* Enables each group; false (with what was enabled already restored) and
 * e->why set when a group does not exist or cannot be written. */
bool rt_trace_events_enable(rt_trace_events *e, const rt_tracefs *t, const char *const *groups, int ngroups);
void rt_trace_events_restore(rt_trace_events *e, const rt_tracefs *t);

#endif
