/* `load cmd`: any command as the load (stress-ng, a shell loop, a video
 * player), run as /bin/sh -c COMMAND, leading a process group of its own.
 * At the end the whole group, and any descendant that left it and was
 * adopted by the agent (pk_load_become_subreaper), gets SIGTERM, then
 * SIGKILL after --grace seconds, and all are reaped. The command ending by
 * itself ends the load: with status 0 as completed, else as an error.
 * Achieved: the CPU its processes used (the reaped children's rusage), its
 * exit status or the signal that ended it, and who ended it. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_procs.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define SHELL "/bin/sh"

typedef struct cmd_state {
    pid_t pid;            /* the shell, also the group's id */
    bool reaped;          /* its status is known */
    int status;
    const char *ended_by; /* "itself", "SIGTERM", "SIGKILL" */
    double children_cpu_before, children_cpu;
} cmd_state;

static int prepare(pk_load_options *opt)
{
    if (!opt->cmd || !*opt->cmd)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "load cmd needs --cmd 'COMMAND' (try --help)");
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_string(out, "cmd", opt->cmd);
    pk_load_put_double(out, "grace_s", opt->grace_s);
}

static double children_cpu_seconds(void)
{
    struct rusage r;
    if (getrusage(RUSAGE_CHILDREN, &r) != 0)
        return NAN;
    return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6 + (double)r.ru_stime.tv_sec +
           (double)r.ru_stime.tv_usec / 1e6;
}

static int start(pk_load_run *run)
{
    cmd_state *s = pk_load_new_state(run, sizeof *s, 0, 0);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    if (access(SHELL, X_OK) != 0)
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "cmd: no %s here to run the command", SHELL);
    s->children_cpu_before = children_cpu_seconds();
    char *argv[] = {"sh", "-c", (char *)run->opt->cmd, NULL};
    s->pid = pk_load_fork_exec(SHELL, argv, true);
    if (s->pid < 0)
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "cmd: cannot fork: %s", strerror(errno));
    return PK_CONTINUE;
}

static void record(cmd_state *s, int status, const char *ended_by)
{
    s->reaped = true;
    s->status = status;
    s->ended_by = ended_by;
}

/* The shell ending by itself ends the load. */
static void poll_shell(pk_load_run *run)
{
    cmd_state *s = run->state;
    int status;
    if (s->reaped || waitpid(s->pid, &status, WNOHANG) != s->pid)
        return;
    record(s, status, "itself");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        pk_load_finish(run);
    else if (WIFEXITED(status))
        pk_load_fail(run, "the command exited with status %d", WEXITSTATUS(status));
    else
        pk_load_fail(run, "the command was killed by signal %d", WTERMSIG(status));
}

static void reaped(pid_t pid, int status, void *ctx)
{
    cmd_state *s = ctx;
    if (pid == s->pid && !s->reaped)
        record(s, status, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? "SIGKILL" : "SIGTERM");
}

static void stop(pk_load_run *run)
{
    cmd_state *s = run->state;
    poll_shell(run);
    pk_load_end_processes(s->pid, run->opt->grace_s, reaped, s);
    s->children_cpu = children_cpu_seconds() - s->children_cpu_before;
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const cmd_state *s = run->state;
    pk_load_put_double(out, "command_cpu_percent",
                       run->seconds > 0 ? 100.0 * s->children_cpu / run->seconds : NAN);
    if (s->reaped && WIFEXITED(s->status))
        pk_load_put_int(out, "exit_status", WEXITSTATUS(s->status));
    else
        pk_load_put_null(out, "exit_status");
    if (s->reaped && WIFSIGNALED(s->status))
        pk_load_put_int(out, "signal", WTERMSIG(s->status));
    else
        pk_load_put_null(out, "signal");
    pk_load_put_string(out, "ended_by", s->reaped ? s->ended_by : NULL);
    pk_load_put_int(out, "process_group", s->pid);
}

const pk_load_kind pk_load_kind_cmd = {
    .name = "cmd",
    .options = PK_LOAD_OPT_CMD | PK_LOAD_OPT_GRACE,
    .prepare = prepare,
    .params = params,
    .start = start,
    .poll = poll_shell,
    .stop = stop,
    .achieved = achieved,
};
