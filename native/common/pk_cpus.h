/* CPU lists as the kernel writes them (/sys/devices/system/cpu/online:
 * "0-3,8") and as --cpus takes them, and the CPUs this process may use:
 * one definition for every command of the agent. */
#ifndef PK_CPUS_H
#define PK_CPUS_H

#include <stddef.h>

#define PK_MAX_CPUS 1024 /* CPU_SETSIZE */

/* The CPUs of a list ("" is none), ascending and once each, into
 * cpus[PK_MAX_CPUS]; their count, or -1 for a malformed list (an empty
 * item, a reversed range) or a CPU number of PK_MAX_CPUS or more. */
int pk_cpulist_parse(const char *text, int *cpus);

/* The list back in the kernel's form ("0-3,8") into buf. */
void pk_cpulist_format(const int *cpus, int n, char *buf, size_t size);

/* The CPUs this process may run on (sched_getaffinity), ascending, into
 * cpus[PK_MAX_CPUS]; their count, 0 when it cannot be read. */
int pk_allowed_cpus(int *cpus);

#endif
