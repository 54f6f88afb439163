/* One line of the timerlat tracer's text output (trace, trace_pipe), as
 * Documentation/trace/timerlat-tracer.rst shows it and the kernel prints it
 * ("#%-5u context %6s timer_latency %9llu ns" after the usual columns):
 *
 *   <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       932 ns
 *   <...>-867      [000] ....    54.029339: #1     context thread timer_latency     11700 ns
 *
 * Everything else (headers, osnoise events, stack traces, other tracers'
 * lines) is not a sample. Pure: no I/O, unit-tested on documented text. */
#ifndef RT_TIMERLAT_PARSE_H
#define RT_TIMERLAT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum rt_timerlat_context {
    RT_TIMERLAT_IRQ,      /* the timer interrupt handler's view */
    RT_TIMERLAT_THREAD,   /* the timerlat thread's, once it runs */
    RT_TIMERLAT_USER_RET, /* a user-space timerlat thread's return (not used by portkit) */
} rt_timerlat_context;

typedef struct rt_timerlat_sample {
    int cpu;
    rt_timerlat_context context;
    uint64_t activation;  /* the ACTIVATION ID pairing irq and thread lines */
    uint64_t latency_ns;
    uint64_t timestamp_ns; /* the trace clock's time of the line */
} rt_timerlat_sample;

/* Whether line[0..len) is a timerlat sample; fills *s when it is. */
bool rt_timerlat_parse_line(const char *line, size_t len, rt_timerlat_sample *s);

#endif
