/* Finding tracefs and using its files (Documentation/trace/ftrace.rst). */
#ifndef RT_TRACEFS_H
#define RT_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rt_tracefs {
    char path[256];     /* the mount point, "" when there is none */
    bool mounted_here;  /* rt_tracefs_mount mounted it: rt_tracefs_unmount undoes that */
    char why[256];      /* without a path: why */
} rt_tracefs;

/* Finds a mounted tracefs: a tracefs line of /proc/mounts, else
 * /sys/kernel/tracing or /sys/kernel/debug/tracing holding a "trace" file.
 * Mounts nothing. */
bool rt_tracefs_find(rt_tracefs *t);
/* rt_tracefs_find, else mounts tracefs on /sys/kernel/tracing when this
 * process may (CAP_SYS_ADMIN); t->why says why not. */
bool rt_tracefs_mount(rt_tracefs *t);
void rt_tracefs_unmount(rt_tracefs *t);

/* PATH/file into buf: its path inside tracefs. */
void rt_tracefs_file(const rt_tracefs *t, const char *file, char *buf, size_t size);
bool rt_tracefs_read(const rt_tracefs *t, const char *file, char *buf, size_t size);
bool rt_tracefs_write(const rt_tracefs *t, const char *file, const char *text);

/* Whether tracer is one of the words of available_tracers (text). */
bool rt_tracers_have(const char *tracers, const char *tracer);

/* Whether the named tracer can run: tracers holds available_tracers when
 * tracefs was readable. Otherwise why says so in one line: tracefs not
 * mounted, not permitted, or CONFIG_<...>_TRACER not set (config_set: 0 the
 * kernel config says not set, -1 unknown). */
bool rt_tracer_usable(const rt_tracefs *t, const char *tracer, const char *config_name, int config_set,
                      char *tracers, size_t size, char *why, size_t why_size);

#endif
