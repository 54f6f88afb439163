/* `load spawn`: process start-up, repeated as fast as it goes by N threads
 * at once (the IVI field report's ">80% CPU usage from repeated process
 * start-up"): fork, exec a tiny program, wait for it. The program is
 * /bin/true, or this agent's `load noop` (--program self), which under
 * qemu-user runs only where binfmt_misc hands the foreign binary to qemu.
 * Achieved: spawns per second; the children's CPU time is in cpu_percent. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_procs.h"
#include "load_sys.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define TRUE_PATH "/bin/true"
#define PROBE_SECONDS 5.0

typedef struct spawn_worker {
    pk_load_run *run;
    uint64_t spawns, failed;
} spawn_worker;

typedef struct spawn_state {
    pk_load_workers workers;
    size_t count;
    char path[PATH_MAX];
    char *argv[4];
    spawn_worker w[];
} spawn_state;

static int prepare(pk_load_options *opt)
{
    if (!opt->program)
        opt->program = access(TRUE_PATH, X_OK) == 0 ? "true" : "self";
    if (strcmp(opt->program, "true") && strcmp(opt->program, "self"))
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--program '%s': expected true or self", opt->program);
    if (!(opt->given & PK_LOAD_OPT_WORKERS))
        opt->workers = pk_allowed_cpu_count();
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "workers", opt->workers);
    pk_load_put_string(out, "program", opt->program);
}

/* The status of child pid, waiting at most seconds; then it is killed. */
static int wait_bounded(pid_t pid, double seconds)
{
    uint64_t end = pk_now_ns() + (uint64_t)(seconds * 1e9);
    int status;
    struct timespec nap = {0, 1000000};
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (pk_now_ns() >= end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        nanosleep(&nap, NULL);
    }
    return status;
}

/* The program, run once before the load: a failure is this machine's. */
static int probe(spawn_state *s)
{
    pid_t pid = pk_load_fork_exec(s->path, s->argv, false);
    if (pid < 0)
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "spawn: cannot fork: %s", strerror(errno));
    int status = wait_bounded(pid, PROBE_SECONDS);
    if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return PK_CONTINUE;
    return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "spawn: %s %s did not run here (%s)%s", s->path,
                   s->argv[1] ? "load noop" : "", status == -1 ? "no end within 5 s" : "it failed",
                   s->argv[1] ? "; under qemu-user without binfmt_misc, use --program true" : "");
}

static void *spawn_main(void *arg)
{
    spawn_worker *w = arg;
    spawn_state *s = (spawn_state *)w->run->state;
    while (pk_load_running(w->run)) {
        pid_t pid = pk_load_fork_exec(s->path, s->argv, false);
        if (pid < 0) {
            if (errno != EAGAIN && errno != ENOMEM) {
                pk_load_fail(w->run, "cannot fork: %s", strerror(errno));
                break;
            }
            w->failed++; /* out of processes for now: the load is at its limit */
            struct timespec nap = {0, 1000000};
            nanosleep(&nap, NULL);
            continue;
        }
        int status = 0;
        pid_t got;
        while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
        }
        if (got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
            w->spawns++;
        else
            w->failed++;
    }
    return NULL;
}

/* A child that does not end (it cannot be /bin/true) is killed, so that
 * its worker's wait returns. */
static void kill_children(void *unused)
{
    (void)unused;
    pid_t pids[PK_LOAD_MAX_THREADS];
    size_t n = pk_load_list_processes(0, pids, PK_LOAD_MAX_THREADS);
    for (size_t i = 0; i < n && i < PK_LOAD_MAX_THREADS; i++)
        kill(pids[i], SIGKILL);
}

static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    spawn_state *s = pk_load_new_state(run, offsetof(spawn_state, w), opt->workers, sizeof s->w[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->count = opt->workers;
    if (!strcmp(opt->program, "true")) {
        strcpy(s->path, TRUE_PATH);
        s->argv[0] = "true";
    } else {
        ssize_t n = readlink("/proc/self/exe", s->path, sizeof s->path - 1);
        if (n <= 0)
            return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "spawn: cannot tell where this agent is (/proc/self/exe)");
        s->path[n] = '\0';
        s->argv[0] = s->path;
        s->argv[1] = "load";
        s->argv[2] = "noop";
    }
    int status = probe(s);
    if (status != PK_CONTINUE)
        return status;
    if (!pk_load_workers_start(&s->workers, run, s->count, spawn_main, s->w, sizeof s->w[0]))
        return PK_EXIT_ENV; /* the harness reports run->error */
    return PK_CONTINUE;
}

static void stop(pk_load_run *run)
{
    spawn_state *s = run->state;
    pk_load_workers_stop(&s->workers, run, 2.0, kill_children, NULL);
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const spawn_state *s = run->state;
    uint64_t spawns = 0, failed = 0;
    for (size_t i = 0; i < s->count; i++) {
        spawns += s->w[i].spawns;
        failed += s->w[i].failed;
    }
    pk_load_put_rate(out, "spawns_per_s", (double)spawns, run->seconds);
    pk_load_put_uint(out, "spawns", spawns);
    pk_load_put_uint(out, "failed_spawns", failed);
}

const pk_load_kind pk_load_kind_spawn = {
    .name = "spawn",
    .options = PK_LOAD_OPT_WORKERS | PK_LOAD_OPT_PROGRAM,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = stop,
    .achieved = achieved,
};
