/* What the load harness and its kinds ask of the system: CPU time, the
 * kernel's /proc/stat counters, which CPUs this process may run on and its
 * open descriptors. */
#ifndef PK_LOAD_SYS_H
#define PK_LOAD_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Jiffies of one /proc/stat "cpu" line: busy (not idle or iowait) and in all. */
typedef struct pk_cpu_jiffies {
    uint64_t busy, total;
} pk_cpu_jiffies;

typedef struct pk_proc_stat {
    bool ok;               /* /proc/stat was read */
    pk_cpu_jiffies all;    /* the "cpu" line */
    size_t count;          /* "cpuN" lines (online CPUs) */
    int *cpu;              /* their N, count of them */
    pk_cpu_jiffies *per;   /* their jiffies */
} pk_proc_stat;

/* Reads /proc/stat (s->ok false when it cannot; arrays allocated, free with
 * pk_proc_stat_free). */
void pk_proc_stat_read(pk_proc_stat *s);
void pk_proc_stat_free(pk_proc_stat *s);
/* Busy share of the jiffies between two readings in percent, NaN when none
 * passed. */
double pk_busy_percent(pk_cpu_jiffies before, pk_cpu_jiffies after);
/* The jiffies of CPU n in s, or false when it was not listed. */
bool pk_proc_stat_cpu(const pk_proc_stat *s, int n, pk_cpu_jiffies *out);

/* CPU seconds of this process (all threads) and of its reaped children. */
double pk_process_cpu_seconds(void);
/* CPU seconds of the calling thread. */
double pk_thread_cpu_seconds(void);

/* The CPUs this process may run on (sched_getaffinity), ascending, at
 * most max; the count (0 if unknown). */
size_t pk_allowed_cpus(int *cpus, size_t max);
/* How many CPUs this process may run on, at least 1: the default number of
 * workers, one per CPU. */
size_t pk_allowed_cpu_count(void);
/* "0-3,6" into cpus (in the order given, at most max): false on anything
 * else (empty items, a reversed range, more than max CPUs). */
bool pk_parse_cpu_list(const char *s, int *cpus, size_t max, size_t *count);

/* Open descriptors of this process (entries of /proc/self/fd), -1 unknown. */
int pk_count_descriptors(void);

#endif
