#include "load_workers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pk_cli.h"

/* Small stacks: a load may run hundreds of threads in a 32-bit address
 * space, and no worker recurses deeply (nftw: one frame per directory level). */
#define STACK_BYTES (512u * 1024u)

struct pk_load_thread {
    pthread_t id;
    pk_load_workers *owner;
    void *(*fn)(void *);
    void *arg;
};

static void *trampoline(void *p)
{
    pk_load_thread *t = p;
    t->fn(t->arg);
    atomic_fetch_sub(&t->owner->live, 1);
    return NULL;
}

bool pk_load_workers_start(pk_load_workers *w, pk_load_run *run, size_t count, void *(*fn)(void *), void *args,
                           size_t arg_size)
{
    w->count = 0;
    atomic_init(&w->live, 0);
    w->threads = calloc(count ? count : 1, sizeof *w->threads);
    if (!w->threads) {
        pk_load_fail(run, "out of memory for %zu threads", count);
        return false;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, STACK_BYTES);
    for (size_t i = 0; i < count; i++) {
        pk_load_thread *t = &w->threads[i];
        *t = (pk_load_thread){.owner = w, .fn = fn, .arg = (char *)args + i * arg_size};
        atomic_fetch_add(&w->live, 1);
        int err = pthread_create(&t->id, &attr, trampoline, t);
        if (err) {
            atomic_fetch_sub(&w->live, 1);
            pthread_attr_destroy(&attr);
            pk_load_fail(run, "cannot start thread %zu of %zu: %s", i + 1, count, strerror(err));
            atomic_store(&run->stop, true);
            pk_load_workers_stop(w, run, 1.0, NULL, NULL);
            return false;
        }
        w->count++;
    }
    pthread_attr_destroy(&attr);
    return true;
}

static bool wait_live(pk_load_workers *w, double seconds)
{
    uint64_t end = pk_now_ns() + (uint64_t)(seconds * 1e9);
    struct timespec nap = {0, 2 * 1000 * 1000};
    while (atomic_load(&w->live) > 0) {
        if (pk_now_ns() >= end)
            return false;
        nanosleep(&nap, NULL);
    }
    return true;
}

bool pk_load_workers_stop(pk_load_workers *w, pk_load_run *run, double grace_s, void (*force)(void *), void *ctx)
{
    bool ended = wait_live(w, grace_s);
    if (!ended && force) {
        force(ctx);
        ended = wait_live(w, 1.0);
    }
    if (!ended) {
        int live = atomic_load(&w->live);
        pk_load_fail(run, "%d of %zu workers did not stop", live, w->count);
        run->stuck = true;
        /* Their threads keep pointers into w: it stays allocated. */
        for (size_t i = 0; i < w->count; i++)
            pthread_detach(w->threads[i].id);
        return false;
    }
    for (size_t i = 0; i < w->count; i++)
        pthread_join(w->threads[i].id, NULL);
    free(w->threads);
    w->threads = NULL;
    w->count = 0;
    return true;
}

void pk_load_stop_workers(pk_load_run *run)
{
    pk_load_workers_stop(run->state, run, 2.0, NULL, NULL);
}

void *pk_load_new_state(pk_load_run *run, size_t header, size_t count, size_t item)
{
    char *block = calloc(1, header + count * item);
    if (!block) {
        pk_load_fail(run, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        *(pk_load_run **)(block + header + i * item) = run;
    run->state = block;
    return block;
}

void *pk_load_buffer(pk_load_run *run, size_t size)
{
    void *buf = calloc(1, size);
    if (!buf)
        pk_load_fail(run, "out of memory for %zu bytes", size);
    return buf;
}

bool pk_load_sleep_until(pk_load_run *run, uint64_t t_ns)
{
    while (pk_load_running(run)) {
        if (pk_now_ns() >= t_ns)
            return true;
        struct timespec ts = pk_load_poll_slice(t_ns);
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    return false;
}
