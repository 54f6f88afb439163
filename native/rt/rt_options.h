/* The options of `portkit-target rt` (measuring), parsed and checked. */
#ifndef RT_OPTIONS_H
#define RT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cpulist.h"

#define RT_CMD "rt"
#define RT_SCHEMA "portkit.rt/1"
#define RT_SYSINFO_SCHEMA "portkit.rt-sysinfo/1"

#define RT_DEFAULT_PRIORITY 80      /* cyclictest -p80, the field report's */
#define RT_DEFAULT_INTERVAL_US 1000 /* cyclictest's default -i */
#define RT_DEFAULT_DURATION_NS 10000000000ull /* 10 s when neither --loops nor --duration */
#define RT_MAX_INTERVAL_US 1000000 /* a thread notices a stop within one interval */
#define RT_MIN_INTERVAL_US 10
#define RT_MAX_DURATION_NS (7 * 86400ull * 1000000000ull)
#define RT_MAX_EVENT_GROUPS 8

typedef enum rt_policy { RT_POLICY_FIFO, RT_POLICY_RR, RT_POLICY_OTHER } rt_policy;

typedef struct rt_options {
    int cpus[RT_MAX_CPUS];
    int ncpus;
    bool cpus_given;
    rt_policy policy;
    int priority;          /* 0 under SCHED_OTHER */
    uint64_t interval_us;
    uint64_t distance_us;
    uint64_t loops;        /* 0: no limit */
    uint64_t duration_ns;  /* 0: no limit */
    bool no_rt;            /* SCHED_OTHER without mlockall */
    bool dma_latency;      /* hold /dev/cpu_dma_latency at 0 */
    bool break_given;
    uint64_t break_us;
    const char *trace_file; /* --trace-file, or NULL */
    const char *event_groups[RT_MAX_EVENT_GROUPS]; /* --trace-events, pointing into argv */
    int nevent_groups;
    bool timerlat;
    uint64_t bucket_ns;
    uint64_t buckets;
    bool progress; /* JSON progress lines on stderr */
    bool json;
} rt_options;

/* PK_CONTINUE, or the exit code to stop with (--help printed, or one usage
 * line). Fills in the defaults: all allowed online CPUs, FIFO 80, 1000 us,
 * 10 s when neither --loops nor --duration is given. */
int rt_parse_options(int argc, char **argv, rt_options *opt);

const char *rt_policy_name(rt_policy p);

/* Thread i's period: interval + i * distance (cyclictest -d), in ns. */
uint64_t rt_thread_interval_ns(const rt_options *opt, int i);

#endif
