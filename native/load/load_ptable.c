/* The processes of a load, from the process table in /proc. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_procs.h"

typedef struct entry {
    pid_t pid, parent, group;
    char state; /* 'Z': dead, not yet reaped */
    bool load;  /* this process's descendant */
} entry;

/* The state, parent and process group of /proc/PID/stat: the fields after
 * "(comm)", which may itself hold blanks and parentheses. */
static bool read_entry(const char *pid, entry *e)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false; /* it ended meanwhile */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *close = strrchr(buf, ')');
    int parent, group;
    if (!close || sscanf(close + 1, " %c %d %d", &e->state, &parent, &group) != 3)
        return false;
    *e = (entry){.pid = (pid_t)atol(pid), .parent = parent, .group = group, .state = e->state};
    return true;
}

/* Every process, sorted by pid (readdir's order), in a malloc'd table. */
static entry *read_table(size_t *count)
{
    *count = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return NULL;
    size_t cap = 256;
    entry *t = malloc(cap * sizeof *t);
    struct dirent *de;
    while (t && (de = readdir(d))) {
        if (!isdigit((unsigned char)de->d_name[0]) || !read_entry(de->d_name, &t[*count]))
            continue;
        if (++*count == cap) {
            entry *grown = realloc(t, (cap *= 2) * sizeof *t);
            if (!grown)
                free(t);
            t = grown;
        }
    }
    closedir(d);
    return t;
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const entry *)a)->pid, y = ((const entry *)b)->pid;
    return (x > y) - (x < y);
}

static const entry *find(const entry *t, size_t n, pid_t pid)
{
    entry key = {.pid = pid};
    return bsearch(&key, t, n, sizeof *t, by_pid);
}

/* Marks this process's descendants, a generation per pass. */
static void mark_descendants(entry *t, size_t n, pid_t self)
{
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < n; i++) {
            if (t[i].load)
                continue;
            const entry *parent = find(t, n, t[i].parent);
            if (t[i].parent == self || (parent && parent->load))
                more = t[i].load = true;
        }
    }
}

size_t pk_load_list_processes(pid_t pgid, pid_t *pids, size_t max)
{
    size_t n;
    entry *t = read_table(&n);
    if (!t)
        return 0;
    qsort(t, n, sizeof *t, by_pid);
    pid_t self = getpid();
    mark_descendants(t, n, self);
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        /* A dead process is its parent's to reap; ours we reap. */
        bool alive = t[i].state != 'Z';
        bool wanted = (t[i].load && (alive || t[i].parent == self)) || (pgid > 0 && t[i].group == pgid && alive);
        if (!wanted || t[i].pid == self)
            continue;
        if (found < max)
            pids[found] = t[i].pid;
        found++;
    }
    free(t);
    return found;
}
