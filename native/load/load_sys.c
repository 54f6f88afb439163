#include "load_sys.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---- /proc/stat ---------------------------------------------------------- */

/* "user nice system idle iowait irq softirq steal ..." after the name; guest
 * time is already inside user and nice, so it is not added again. */
static bool parse_jiffies(const char *fields, pk_cpu_jiffies *out)
{
    uint64_t v[8] = {0};
    int n = sscanf(fields, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                           " %" SCNu64,
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    if (n < 4)
        return false;
    out->total = 0;
    for (int i = 0; i < 8; i++)
        out->total += v[i];
    out->busy = out->total - v[3] - v[4]; /* less idle and iowait */
    return true;
}

void pk_proc_stat_read(pk_proc_stat *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen("/proc/stat", "re");
    if (!f)
        return;
    char line[512];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "cpu", 3) != 0)
            break; /* the cpu lines come first */
        if (line[3] == ' ') {
            s->ok = parse_jiffies(line + 4, &s->all);
            continue;
        }
        char *end;
        long n = strtol(line + 3, &end, 10);
        if (end == line + 3 || *end != ' ' || n < 0 || n > 1 << 20)
            continue;
        if (s->count == cap) {
            size_t grown = cap ? 2 * cap : 16;
            int *cpu = realloc(s->cpu, grown * sizeof *cpu);
            if (cpu)
                s->cpu = cpu;
            pk_cpu_jiffies *per = realloc(s->per, grown * sizeof *per);
            if (per)
                s->per = per;
            if (!cpu || !per)
                break;
            cap = grown;
        }
        if (parse_jiffies(end + 1, &s->per[s->count]))
            s->cpu[s->count++] = (int)n;
    }
    fclose(f);
}

void pk_proc_stat_free(pk_proc_stat *s)
{
    free(s->cpu);
    free(s->per);
    memset(s, 0, sizeof *s);
}

double pk_busy_percent(pk_cpu_jiffies before, pk_cpu_jiffies after)
{
    if (after.total <= before.total || after.busy < before.busy)
        return NAN;
    return 100.0 * (double)(after.busy - before.busy) / (double)(after.total - before.total);
}

bool pk_proc_stat_cpu(const pk_proc_stat *s, int n, pk_cpu_jiffies *out)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->cpu[i] == n) {
            *out = s->per[i];
            return true;
        }
    return false;
}

/* ---- CPU time ------------------------------------------------------------ */

static double timeval_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

double pk_process_cpu_seconds(void)
{
    struct rusage self, children;
    if (getrusage(RUSAGE_SELF, &self) != 0 || getrusage(RUSAGE_CHILDREN, &children) != 0)
        return NAN;
    return timeval_s(self.ru_utime) + timeval_s(self.ru_stime) + timeval_s(children.ru_utime) +
           timeval_s(children.ru_stime);
}

double pk_thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return NAN;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- CPUs ------------------------------------------------------------------ */

size_t pk_allowed_cpus(int *cpus, size_t max)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    size_t n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    return n;
}

size_t pk_allowed_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 1)
        return 1;
    return (size_t)CPU_COUNT(&set);
}

static bool parse_cpu_number(const char *s, const char **end, long *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    char *e;
    *out = strtol(s, &e, 10);
    *end = e;
    return *out < CPU_SETSIZE;
}

bool pk_parse_cpu_list(const char *s, int *cpus, size_t max, size_t *count)
{
    *count = 0;
    const char *p = s;
    do {
        long lo, hi;
        if (!parse_cpu_number(p, &p, &lo))
            return false;
        hi = lo;
        if (*p == '-' && (!parse_cpu_number(p + 1, &p, &hi) || hi < lo))
            return false;
        for (long c = lo; c <= hi; c++) {
            if (*count == max)
                return false;
            cpus[(*count)++] = (int)c;
        }
    } while (*p++ == ',');
    return p[-1] == '\0';
}

/* ---- descriptors ----------------------------------------------------------------- */

int pk_count_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}
