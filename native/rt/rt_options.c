#include "rt_options.h"

#include <ctype.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_options.h"
#include "pk_stats.h"
#include "rt_usage.h"

enum {
    OPT_CPUS = 256, OPT_PRIORITY, OPT_POLICY, OPT_INTERVAL, OPT_DISTANCE, OPT_LOOPS, OPT_DURATION,
    OPT_NO_RT, OPT_NO_DMA, OPT_BREAK, OPT_TRACE_FILE, OPT_TRACE_EVENTS, OPT_TIMERLAT, OPT_BUCKET_NS,
    OPT_BUCKETS, OPT_PROGRESS, OPT_JSON,
};

static const struct option longopts[] = {
    {"cpus", required_argument, NULL, OPT_CPUS},
    {"priority", required_argument, NULL, OPT_PRIORITY},
    {"policy", required_argument, NULL, OPT_POLICY},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"distance", required_argument, NULL, OPT_DISTANCE},
    {"loops", required_argument, NULL, OPT_LOOPS},
    {"duration", required_argument, NULL, OPT_DURATION},
    {"no-rt", no_argument, NULL, OPT_NO_RT},
    {"no-dma-latency", no_argument, NULL, OPT_NO_DMA},
    {"break", required_argument, NULL, OPT_BREAK},
    {"trace-file", required_argument, NULL, OPT_TRACE_FILE},
    {"trace-events", required_argument, NULL, OPT_TRACE_EVENTS},
    {"timerlat", no_argument, NULL, OPT_TIMERLAT},
    {"bucket-ns", required_argument, NULL, OPT_BUCKET_NS},
    {"buckets", required_argument, NULL, OPT_BUCKETS},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const char *rt_policy_name(rt_policy p)
{
    return p == RT_POLICY_FIFO ? "fifo" : p == RT_POLICY_RR ? "rr" : "other";
}

uint64_t rt_thread_interval_ns(const rt_options *opt, int i)
{
    return (opt->interval_us + (uint64_t)i * opt->distance_us) * 1000u;
}

/* --cpus all | LIST: each CPU must be one this process may run on. */
static int parse_cpus(const char *value, const int *allowed, int nallowed, rt_options *opt)
{
    if (!strcmp(value, "all")) {
        memcpy(opt->cpus, allowed, (size_t)nallowed * sizeof *allowed);
        opt->ncpus = nallowed;
        return PK_CONTINUE;
    }
    int n = pk_cpulist_parse(value, opt->cpus);
    if (n <= 0)
        return pk_fail(PK_EXIT_USAGE, RT_CMD, "--cpus '%s': expected all or a list such as 0,1 or 0-3", value);
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < nallowed && allowed[k] != opt->cpus[i])
            k++;
        if (k == nallowed) {
            char list[256];
            pk_cpulist_format(allowed, nallowed, list, sizeof list);
            return pk_fail(PK_EXIT_USAGE, RT_CMD, "--cpus: CPU %d is not online or not allowed here (allowed: %s)",
                           opt->cpus[i], list);
        }
    }
    opt->ncpus = n;
    return PK_CONTINUE;
}

static int parse_event_groups(char *value, rt_options *opt)
{
    char *save = NULL;
    for (char *g = strtok_r(value, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
        for (const char *c = g; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_')
                return pk_fail(PK_EXIT_USAGE, RT_CMD, "--trace-events: '%s' is not an event group name", g);
        if (opt->nevent_groups == RT_MAX_EVENT_GROUPS)
            return pk_fail(PK_EXIT_USAGE, RT_CMD, "--trace-events: more than %d groups", RT_MAX_EVENT_GROUPS);
        opt->event_groups[opt->nevent_groups++] = g;
    }
    return opt->nevent_groups ? PK_CONTINUE
                              : pk_fail(PK_EXIT_USAGE, RT_CMD, "--trace-events: expected groups such as sched,irq");
}

static int parse_one(int c, const int *allowed, int nallowed, rt_options *opt, bool *priority_given,
                     bool *policy_given)
{
    uint64_t v;
    int status = PK_CONTINUE;
    switch (c) {
    case OPT_CPUS: return parse_cpus(optarg, allowed, nallowed, opt);
    case OPT_PRIORITY:
        *priority_given = true;
        status = pk_whole_number_option(RT_CMD, "--priority", optarg, 1, 99, &v);
        opt->priority = (int)v;
        return status;
    case OPT_POLICY:
        *policy_given = true;
        if (!strcmp(optarg, "fifo"))
            opt->policy = RT_POLICY_FIFO;
        else if (!strcmp(optarg, "rr"))
            opt->policy = RT_POLICY_RR;
        else if (!strcmp(optarg, "other"))
            opt->policy = RT_POLICY_OTHER;
        else
            return pk_fail(PK_EXIT_USAGE, RT_CMD, "--policy '%s': expected fifo, rr or other", optarg);
        return PK_CONTINUE;
    case OPT_INTERVAL:
        return pk_whole_number_option(RT_CMD, "--interval", optarg, RT_MIN_INTERVAL_US, RT_MAX_INTERVAL_US,
                                      &opt->interval_us);
    case OPT_DISTANCE:
        return pk_whole_number_option(RT_CMD, "--distance", optarg, 0, RT_MAX_INTERVAL_US, &opt->distance_us);
    case OPT_LOOPS: return pk_whole_number_option(RT_CMD, "--loops", optarg, 1, 10000000000LL, &opt->loops);
    case OPT_DURATION: {
        double seconds;
        int parsed = pk_seconds_option(RT_CMD, "--duration", optarg, false, RT_MAX_DURATION_NS / 1e9, &seconds);
        if (parsed == PK_CONTINUE)
            opt->duration_ns = (uint64_t)llround(seconds * 1e9);
        return parsed;
    }
    case OPT_NO_RT: opt->no_rt = true; return PK_CONTINUE;
    case OPT_NO_DMA: opt->dma_latency = false; return PK_CONTINUE;
    case OPT_BREAK:
        opt->break_given = true;
        return pk_whole_number_option(RT_CMD, "--break", optarg, 0, 10000000, &opt->break_us);
    case OPT_TRACE_FILE: opt->trace_file = optarg; return PK_CONTINUE;
    case OPT_TRACE_EVENTS: return parse_event_groups(optarg, opt);
    case OPT_TIMERLAT: opt->timerlat = true; return PK_CONTINUE;
    case OPT_BUCKET_NS: return pk_whole_number_option(RT_CMD, "--bucket-ns", optarg, 1, 1000000000, &opt->bucket_ns);
    case OPT_BUCKETS:
        return pk_whole_number_option(RT_CMD, "--buckets", optarg, 1, PK_HIST_MAX_BUCKETS, &opt->buckets);
    case OPT_PROGRESS: opt->progress = true; return PK_CONTINUE;
    case OPT_JSON: opt->json = true; return PK_CONTINUE;
    case 'h': rt_usage(stdout); return PK_EXIT_OK;
    default: return pk_fail(PK_EXIT_USAGE, RT_CMD, "unexpected option (try --help)");
    }
}

/* Combinations the options alone rule out. */
static int check_combinations(rt_options *opt, bool priority_given, bool policy_given)
{
    if (opt->no_rt && policy_given && opt->policy != RT_POLICY_OTHER)
        return pk_fail(PK_EXIT_USAGE, RT_CMD, "--no-rt measures under SCHED_OTHER: it cannot take --policy %s",
                       rt_policy_name(opt->policy));
    if (opt->no_rt)
        opt->policy = RT_POLICY_OTHER;
    if (opt->policy == RT_POLICY_OTHER) {
        if (priority_given)
            return pk_fail(PK_EXIT_USAGE, RT_CMD, "--priority needs --policy fifo or rr (SCHED_OTHER has none)");
        opt->priority = 0;
    }
    uint64_t longest = opt->interval_us + (uint64_t)(opt->ncpus - 1) * opt->distance_us;
    if (longest > RT_MAX_INTERVAL_US)
        return pk_fail(PK_EXIT_USAGE, RT_CMD,
                       "--interval %llu + %d x --distance %llu is more than %d us for the last thread",
                       (unsigned long long)opt->interval_us, opt->ncpus - 1, (unsigned long long)opt->distance_us,
                       RT_MAX_INTERVAL_US);
    if (opt->trace_file && !opt->break_given)
        return pk_fail(PK_EXIT_USAGE, RT_CMD, "--trace-file is where --break saves the trace: it needs --break");
    if (!opt->loops && !opt->duration_ns)
        opt->duration_ns = RT_DEFAULT_DURATION_NS;
    if (!opt->buckets) {
        uint64_t b = PK_HIST_DEFAULT_RANGE_NS / opt->bucket_ns;
        opt->buckets = b < 1 ? 1 : b > 1000000 ? 1000000 : b;
    }
    return PK_CONTINUE;
}

int rt_parse_options(int argc, char **argv, rt_options *opt)
{
    int allowed[PK_MAX_CPUS];
    int nallowed = pk_allowed_cpus(allowed);
    if (nallowed == 0)
        return pk_fail(PK_EXIT_ENV, RT_CMD, "cannot read the CPUs this process may run on (sched_getaffinity)");
    memset(opt, 0, sizeof *opt);
    memcpy(opt->cpus, allowed, (size_t)nallowed * sizeof *allowed);
    opt->ncpus = nallowed;
    opt->policy = RT_POLICY_FIFO;
    opt->priority = RT_DEFAULT_PRIORITY;
    opt->interval_us = RT_DEFAULT_INTERVAL_US;
    opt->dma_latency = true;
    opt->bucket_ns = PK_HIST_DEFAULT_BUCKET_NS;

    bool priority_given = false, policy_given = false;
    int status = PK_CONTINUE, c;
    pk_options_start();
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1)
        status = c == '?' || c == ':' ? pk_option_error(RT_CMD, c, argv, longopts)
                                      : parse_one(c, allowed, nallowed, opt, &priority_given, &policy_given);
    if (status == PK_CONTINUE)
        status = pk_no_operands(RT_CMD, argc, argv);
    if (status == PK_CONTINUE)
        status = check_combinations(opt, priority_given, policy_given);
    return status;
}
