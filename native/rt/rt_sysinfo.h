/* The facts of this system that decide wake-up latency, with a one-line
 * warning for each that hurts: `portkit-target rt sysinfo`, and the
 * "sysinfo" block of every rt document. Only reads; mounts nothing. */
#ifndef RT_SYSINFO_H
#define RT_SYSINFO_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "pk_json.h"
#include "pk_cpus.h"

#define RT_MAX_IDLE_STATES 16
#define RT_MAX_WARNINGS 48
#define RT_MAX_GOVERNORS 8

typedef struct rt_idle_state {
    char name[24];
    long long latency_us; /* exit latency; -1 unknown */
    bool disabled;
} rt_idle_state;

typedef struct rt_cpu_facts {
    int cpu;
    char governor[32]; /* cpufreq scaling_governor, "" without cpufreq */
    int nstates;
    rt_idle_state states[RT_MAX_IDLE_STATES];
} rt_cpu_facts;

typedef struct rt_warning {
    const char *id;    /* its rule id, PKS1xx (rt_sysinfo_warnings.c) */
    const char *about; /* the field it is about: "preemption", "cpufreq", ... */
    char message[384];
} rt_warning;

typedef struct rt_sysinfo {
    struct utsname uts;
    const char *preempt_model;       /* none voluntary full lazy dynamic rt unknown */
    const char *preempt_source;      /* what told: /sys/kernel/realtime, the config file, uname -v */
    char preempt_mode[16];           /* PREEMPT_DYNAMIC's mode; "" unknown */
    const char *preempt_mode_source; /* debugfs, kernel command line, kernel config default; NULL */
    char config_source[300];         /* the kernel config read, "" none */
    char config_why[300];            /* without one: why */
    int timerlat_config;             /* CONFIG_TIMERLAT_TRACER: 1 set, 0 not set, -1 unknown */
    long long hz;                    /* CONFIG_HZ, 0 unknown */
    char clocksource[64], clocksources[256];
    long long clock_res_ns;
    int online[PK_MAX_CPUS], nonline;
    int isolated[PK_MAX_CPUS], nisolated;
    int nohz_full[PK_MAX_CPUS], nnohz_full; /* nnohz_full -1: the kernel has no nohz_full file */
    bool cpufreq;                    /* any CPU has cpufreq */
    bool cpuidle;                    /* any CPU has cpuidle states */
    char idle_driver[32], idle_governor[32];
    rt_cpu_facts *per_cpu;           /* nonline entries */
    long long rt_runtime_us, rt_period_us; /* sched_rt_*; period 0: unreadable */
    bool dma_openable;
    char dma_error[128];
    char tracefs[256];               /* mount point, "" when not found */
    char tracers[512];               /* available_tracers */
    bool timerlat, osnoise;
    char timerlat_why[256];          /* without timerlat: why */
    double loadavg[3];
    bool loadavg_known;
    int hypervisor;                  /* 1 yes, 0 no, -1 unknown */
    rt_warning warnings[RT_MAX_WARNINGS];
    int nwarnings;
} rt_sysinfo;

/* A malloc'd, filled-in rt_sysinfo (NULL only without memory). */
rt_sysinfo *rt_sysinfo_collect(void);
void rt_sysinfo_free(rt_sysinfo *s);

/* The members of portkit.rt-sysinfo/1 after schema and agent (docs/formats.md),
 * into the object that is open. */
void rt_sysinfo_json(pk_json *j, const rt_sysinfo *s);
/* The same as readable lines, the warnings last. */
void rt_sysinfo_text(FILE *out, const rt_sysinfo *s);

#endif
