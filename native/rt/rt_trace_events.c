#include "rt_trace_events.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Remembers file as one to write "0" back to. */
static bool remember(rt_trace_events *e, const char *file)
{
    if (e->nsaved == RT_MAX_SAVED_EVENTS) {
        snprintf(e->why, sizeof e->why, "more than %d events to restore", RT_MAX_SAVED_EVENTS);
        return false;
    }
    snprintf(e->saved[e->nsaved++].file, sizeof e->saved[0].file, "%s", file);
    return true;
}

/* A partly enabled group: remember each of its disabled events. */
static bool remember_disabled_events(rt_trace_events *e, const rt_tracefs *t, const char *group)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/events/%s", t->path, group);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(e->why, sizeof e->why, "cannot list %.200s: %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *ent;
    while (ok && (ent = readdir(d)) != NULL) {
        char file[128], state[8];
        if (ent->d_name[0] == '.' ||
            snprintf(file, sizeof file, "events/%s/%s/enable", group, ent->d_name) >= (int)sizeof file)
            continue;
        if (rt_tracefs_read(t, file, state, sizeof state) && !strcmp(state, "0"))
            ok = remember(e, file);
    }
    closedir(d);
    return ok;
}

static bool enable_group(rt_trace_events *e, const rt_tracefs *t, const char *group)
{
    char file[128], state[8];
    snprintf(file, sizeof file, "events/%s/enable", group);
    if (!rt_tracefs_read(t, file, state, sizeof state)) {
        snprintf(e->why, sizeof e->why, "no event group '%s' in %s/events (%s)", group, t->path, strerror(errno));
        return false;
    }
    if (!strcmp(state, "1"))
        return true;
    bool ok = !strcmp(state, "0") ? remember(e, file) : remember_disabled_events(e, t, group);
    if (ok && !rt_tracefs_write(t, file, "1")) {
        snprintf(e->why, sizeof e->why, "cannot enable the %s events: %s", group, strerror(errno));
        ok = false;
    }
    return ok;
}

bool rt_trace_events_enable(rt_trace_events *e, const rt_tracefs *t, const char *const *groups, int ngroups)
{
    e->nsaved = 0;
    e->why[0] = '\0';
    if (!t->path[0]) {
        snprintf(e->why, sizeof e->why, "%s", t->why);
        return false;
    }
    for (int i = 0; i < ngroups; i++)
        if (!enable_group(e, t, groups[i])) {
            rt_trace_events_restore(e, t);
            return false;
        }
    return true;
}

void rt_trace_events_restore(rt_trace_events *e, const rt_tracefs *t)
{
    while (e->nsaved > 0)
        rt_tracefs_write(t, e->saved[--e->nsaved].file, "0");
}
