#include "rt_cpulist.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A CPU number at *p, advancing p; -1 if there is none or it is too big. */
static int cpu_number(const char **p)
{
    if (**p < '0' || **p > '9')
        return -1;
    long v = 0;
    while (**p >= '0' && **p <= '9') {
        v = v * 10 + (**p - '0');
        if (v >= RT_MAX_CPUS)
            return -1;
        (*p)++;
    }
    return (int)v;
}

int rt_cpulist_parse(const char *text, int *cpus)
{
    bool in[RT_MAX_CPUS] = {false};
    const char *p = text;
    while (*p) {
        int first = cpu_number(&p), last = first;
        if (first < 0)
            return -1;
        if (*p == '-') {
            p++;
            last = cpu_number(&p);
            if (last < first)
                return -1;
        }
        for (int c = first; c <= last; c++)
            in[c] = true;
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            return -1;
    }
    int n = 0;
    for (int c = 0; c < RT_MAX_CPUS; c++)
        if (in[c])
            cpus[n++] = c;
    return n;
}

void rt_cpulist_format(const int *cpus, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size;) {
        int j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
            j++;
        int w = j > i ? snprintf(buf + used, size - used, "%s%d-%d", used ? "," : "", cpus[i], cpus[j])
                      : snprintf(buf + used, size - used, "%s%d", used ? "," : "", cpus[i]);
        used += w > 0 ? (size_t)w : 0;
        i = j + 1;
    }
}
