/* The status block a 32-bit supervisor shares with its workers through System
 * V shared memory: a 32-bit worker and a 64-bit one attaching the same
 * segment see different layouts. The fixed block uses fixed-width fields. */
#include <stddef.h>
#include <stdint.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/types.h>

struct worker_status {
    long heartbeat;
    pid_t pid;
    unsigned long jobs;
};

struct worker_status_fixed {
    int64_t heartbeat;
    int32_t pid;
    uint32_t jobs;
};

struct worker_status *attach_status(key_t key)
{
    int id = shmget(key, sizeof(struct worker_status), IPC_CREAT | 0600);
    struct worker_status *st = shmat(id, NULL, 0); /* want: PK501 */

    return st;
}

struct worker_status_fixed *attach_status_fixed(key_t key)
{
    int id = shmget(key, sizeof(struct worker_status_fixed), IPC_CREAT | 0600);
    struct worker_status_fixed *st = shmat(id, NULL, 0); /* ok: PK501 */

    return st;
}
