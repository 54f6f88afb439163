#include "load_procs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "load_sys.h"
#include "pk_cli.h"

#define MAX_TRACKED 4096
#define NAP_NS (5 * 1000 * 1000)

bool pk_load_become_subreaper(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

pid_t pk_load_fork_exec(const char *path, char *const argv[], bool own_group)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) {
        /* Both sides set the group, so it exists whichever runs first. */
        if (pid > 0 && own_group)
            setpgid(pid, pid);
        return pid;
    }
    /* The child: only async-signal-safe calls until exec. */
    if (own_group)
        setpgid(0, 0);
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigaction(SIGPIPE, &dfl, NULL); /* the agent ignores it; exec keeps SIG_IGN */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL); /* the agent blocks SIGTERM; exec keeps the mask */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) /* the agent died before the line above */
        _exit(127);
    int null = open("/dev/null", O_RDONLY);
    if (null > 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(2, 1);
    execv(path, argv);
    _exit(127);
}

/* Reaps every child that has ended (ours, and orphans we adopted). */
static void reap_all(pk_load_reaped *reaped, void *ctx)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        if (reaped)
            reaped(pid, status, ctx);
}

static bool listed(const pid_t *pids, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (pids[i] == pid)
            return true;
    return false;
}

size_t pk_load_end_processes(pid_t pgid, double grace_s, pk_load_reaped *reaped, void *ctx)
{
    /* SIGTERM goes once to each process (a second one makes some programs
     * skip their clean-up); after the grace, SIGKILL on every round, also to
     * orphans the agent adopted meanwhile (pk_load_become_subreaper). */
    pid_t pids[MAX_TRACKED], termed[MAX_TRACKED];
    size_t termed_count = 0;
    uint64_t kill_at = pk_now_ns() + (uint64_t)(grace_s * 1e9);
    uint64_t give_up = kill_at + 1000000000u;
    bool group_termed = false;
    for (;;) {
        reap_all(reaped, ctx);
        size_t found = pk_load_list_processes(pgid, pids, MAX_TRACKED);
        if (found == 0)
            return 0;
        uint64_t now = pk_now_ns();
        if (now >= give_up)
            return found;
        bool killing = now >= kill_at;
        if (pgid > 0 && (killing || !group_termed)) {
            kill(-pgid, killing ? SIGKILL : SIGTERM);
            group_termed = true;
        }
        for (size_t i = 0; i < found && i < MAX_TRACKED; i++) {
            if (killing) {
                kill(pids[i], SIGKILL);
            } else if (!listed(termed, termed_count, pids[i]) && termed_count < MAX_TRACKED) {
                kill(pids[i], SIGTERM);
                termed[termed_count++] = pids[i];
            }
        }
        struct timespec nap = {0, NAP_NS};
        nanosleep(&nap, NULL);
    }
}
