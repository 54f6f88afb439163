#include "rt_tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "rt_sysfs.h"

#define DEFAULT_MOUNT "/sys/kernel/tracing"

static bool holds_trace(const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/trace", dir);
    return access(path, F_OK) == 0;
}

/* The first tracefs mount point in /proc/mounts (its fields are
 * "source target type options ..."). */
static bool mounted_tracefs(char *path, size_t size)
{
    FILE *f = fopen("/proc/mounts", "re");
    if (!f)
        return false;
    char line[1024], target[512], type[64];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        if (sscanf(line, "%*s %511s %63s", target, type) == 2 && !strcmp(type, "tracefs") &&
            strlen(target) < size) {
            snprintf(path, size, "%s", target);
            found = true;
        }
    fclose(f);
    return found;
}

bool rt_tracefs_find(rt_tracefs *t)
{
    static const char *const known[] = {DEFAULT_MOUNT, "/sys/kernel/debug/tracing"};
    memset(t, 0, sizeof *t);
    if (mounted_tracefs(t->path, sizeof t->path))
        return true;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (holds_trace(known[i])) {
            snprintf(t->path, sizeof t->path, "%s", known[i]);
            return true;
        }
    snprintf(t->why, sizeof t->why, "tracefs is not mounted (neither %s nor /sys/kernel/debug/tracing)",
             DEFAULT_MOUNT);
    return false;
}

bool rt_tracefs_mount(rt_tracefs *t)
{
    if (rt_tracefs_find(t))
        return true;
    if (mount("nodev", DEFAULT_MOUNT, "tracefs", 0, NULL) != 0) {
        snprintf(t->why, sizeof t->why, "tracefs is not mounted and mounting it on %s failed (%s)", DEFAULT_MOUNT,
                 strerror(errno));
        return false;
    }
    snprintf(t->path, sizeof t->path, "%s", DEFAULT_MOUNT);
    t->mounted_here = true;
    return true;
}

void rt_tracefs_unmount(rt_tracefs *t)
{
    if (t->mounted_here && umount(t->path) == 0)
        t->mounted_here = false;
}

void rt_tracefs_file(const rt_tracefs *t, const char *file, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", t->path, file);
}

bool rt_tracefs_read(const rt_tracefs *t, const char *file, char *buf, size_t size)
{
    char path[512];
    rt_tracefs_file(t, file, path, sizeof path);
    return rt_read_text(path, buf, size);
}

bool rt_tracefs_write(const rt_tracefs *t, const char *file, const char *text)
{
    char path[512];
    rt_tracefs_file(t, file, path, sizeof path);
    return rt_write_text(path, text);
}

bool rt_tracers_have(const char *tracers, const char *tracer)
{
    size_t n = strlen(tracer);
    for (const char *p = tracers; (p = strstr(p, tracer)) != NULL; p += n)
        if ((p == tracers || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return true;
    return false;
}

bool rt_tracer_usable(const rt_tracefs *t, const char *tracer, const char *config_name, int config_set,
                      char *tracers, size_t size, char *why, size_t why_size)
{
    tracers[0] = '\0';
    if (!t->path[0]) {
        snprintf(why, why_size, "%s", t->why);
        return false;
    }
    if (!rt_tracefs_read(t, "available_tracers", tracers, size)) {
        int e = errno;
        snprintf(why, why_size, "%s/available_tracers is not readable (%s)%s", t->path, strerror(e),
                 e == EACCES || e == EPERM ? ": not permitted, tracing needs root" : "");
        return false;
    }
    if (rt_tracers_have(tracers, tracer)) {
        why[0] = '\0';
        return true;
    }
    if (config_set == 0)
        snprintf(why, why_size, "%s is not set in this kernel (available tracers: %s)", config_name, tracers);
    else
        snprintf(why, why_size, "no %s tracer in available_tracers (%s): kernel built without %s?", tracer, tracers,
                 config_name);
    return false;
}
