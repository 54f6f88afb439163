/* The threads of a load: started together, each told to end by the run's
 * stop flag, and waited for with a time limit, so that a stuck worker never
 * keeps the agent from writing its document. */
#ifndef PK_LOAD_WORKERS_H
#define PK_LOAD_WORKERS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "load_run.h"

/* At most this many threads of one kind (--workers, net's pairs, msg's
 * groups x pairs x 2): small stacks, but a 32-bit address space. */
#define PK_LOAD_MAX_THREADS 256

typedef struct pk_load_thread pk_load_thread;

typedef struct pk_load_workers {
    pk_load_thread *threads;
    size_t count; /* started */
    atomic_int live;
} pk_load_workers;

/* Starts count threads running fn(args + i * arg_size); false (with the
 * started ones stopped and joined, run->stop set) when one cannot start. */
bool pk_load_workers_start(pk_load_workers *w, pk_load_run *run, size_t count, void *(*fn)(void *), void *args,
                           size_t arg_size);

/* Waits until every worker has returned (the caller set run->stop and woke
 * them): up to grace_s, then calls force(ctx) if given and waits 1 s more.
 * Joins them and frees w; false when some did not return (they are left
 * running, detached, and the run fails). */
bool pk_load_workers_stop(pk_load_workers *w, pk_load_run *run, double grace_s, void (*force)(void *), void *ctx);

/* The stop of a kind whose state starts with its pk_load_workers and holds
 * nothing else to undo: waits up to 2 s for them. */
void pk_load_stop_workers(pk_load_run *run);

/* run->state: a zeroed block of header bytes and count worker slots of
 * item bytes after it, each slot starting with its pk_load_run pointer,
 * which is set. NULL (run->error set, for the harness to report) without
 * memory. header is offsetof(the state, its flexible array of slots). */
void *pk_load_new_state(pk_load_run *run, size_t header, size_t count, size_t item);

/* A zeroed buffer of size bytes for a worker, or NULL after failing the
 * run ("out of memory for N bytes"). */
void *pk_load_buffer(pk_load_run *run, size_t size);

/* Sleeps until the monotonic time t_ns (pk_now_ns), waking every
 * PK_LOAD_POLL_MS to check the run: false when it was told to stop. */
bool pk_load_sleep_until(pk_load_run *run, uint64_t t_ns);

#endif
