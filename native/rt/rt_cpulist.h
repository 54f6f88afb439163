/* CPU lists as the kernel writes them (/sys/devices/system/cpu/online:
 * "0-3,8") and as --cpus takes them. */
#ifndef RT_CPULIST_H
#define RT_CPULIST_H

#include <stddef.h>

#define RT_MAX_CPUS 1024 /* CPU_SETSIZE */

/* The CPUs of a list ("" is none), ascending and once each, into
 * cpus[RT_MAX_CPUS]; their count, or -1 for a malformed list or a CPU
 * number of RT_MAX_CPUS or more. */
int rt_cpulist_parse(const char *text, int *cpus);

/* The list back in the kernel's form ("0-3,8") into buf. */
void rt_cpulist_format(const int *cpus, int n, char *buf, size_t size);

#endif
