/* Child processes of a load (spawn, cmd): started so that they die with the
 * agent, and ended so that none outlives the run. */
#ifndef PK_LOAD_PROCS_H
#define PK_LOAD_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Makes this process the reaper of its orphaned descendants (Linux 3.4+),
 * so that a command's grandchildren come back to it to be ended and reaped.
 * False when the kernel (or emulator) refuses. */
bool pk_load_become_subreaper(void);

/* fork + exec of path with argv. The child gets the default signal mask and
 * dispositions, SIGKILL when the thread that started it dies, stdin from
 * /dev/null and its stdout on the agent's stderr (the agent's stdout is the
 * document). own_group: it leads a new process group (its pid). Returns the
 * pid, or -1 with errno set when fork fails; an exec failure is exit 127. */
pid_t pk_load_fork_exec(const char *path, char *const argv[], bool own_group);

/* The processes of the load: this process's descendants, found through
 * their parents in /proc (so a command's child that left its process group
 * or session is found while its parent lives), and the living members of
 * process group pgid when pgid > 0. Dead ones only when they are this
 * process's own children, to be reaped. At most max pids into pids (never
 * this process); the count found (may exceed max). */
size_t pk_load_list_processes(pid_t pgid, pid_t *pids, size_t max); /* load_ptable.c */

/* Called for each child reaped by pk_load_end_processes. */
typedef void pk_load_reaped(pid_t pid, int status, void *ctx);

/* Ends the processes of the load (pk_load_list_processes): SIGTERM, then
 * SIGKILL once grace_s has passed, reaping each as it goes, for at most
 * grace_s + 1 s. Returns how many were still there when it gave up (0: all
 * gone). */
size_t pk_load_end_processes(pid_t pgid, double grace_s, pk_load_reaped *reaped, void *ctx);

#endif
