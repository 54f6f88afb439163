/* `load mem`: memory bandwidth. Each of N threads owns a buffer of --size
 * MiB (default 64, more than the caches of the boards portkit targets) and
 * passes over it again and again: write it, read it, copy its first half
 * onto its second, in chunks, looking at the stop flag between chunks.
 * Achieved: all bytes touched per second, and each operation's rate over
 * the time spent in it, summed over the workers. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_sys.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define DEFAULT_MIB 64
#define CHUNK (1u << 20)

enum { OP_WRITE, OP_READ, OP_COPY, NOPS };
/* Where the read pass leaves its sum, so the compiler keeps the reads. */
static volatile uint64_t pk_load_mem_sink;

static const char *const rate_keys[NOPS] = {"write_bytes_per_s", "read_bytes_per_s", "copy_bytes_per_s"};

typedef struct mem_worker {
    pk_load_run *run;
    uint64_t bytes[NOPS];
    uint64_t ns[NOPS];
} mem_worker;

typedef struct mem_state {
    pk_load_workers workers; /* first: pk_load_stop_workers */
    size_t count;
    mem_worker w[];
} mem_state;

static int prepare(pk_load_options *opt)
{
    if (!(opt->given & PK_LOAD_OPT_SIZE))
        opt->size = DEFAULT_MIB;
    if (!(opt->given & PK_LOAD_OPT_WORKERS))
        opt->workers = pk_allowed_cpu_count();
    /* Half of the memory at most, and what a 32-bit address space holds. */
    uint64_t total = opt->size * opt->workers;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t half = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 / CHUNK : UINT64_MAX;
    uint64_t space = SIZE_MAX / 4 / CHUNK;
    if (total > half || total > space)
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "mem: %llu MiB in all is more than this machine allows (%llu MiB)",
                       (unsigned long long)total, (unsigned long long)(half < space ? half : space));
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "workers", opt->workers);
    pk_load_put_uint(out, "size_mib", opt->size);
}

/* One pass of op over the buffer, a chunk at a time; false once stopped. */
static bool pass(mem_worker *w, int op, unsigned char *buf, size_t size)
{
    size_t end = op == OP_COPY ? size / 2 : size;
    for (size_t at = 0; at < end; at += CHUNK) {
        if (!pk_load_running(w->run))
            return false;
        size_t n = end - at < CHUNK ? end - at : CHUNK;
        uint64_t t = pk_now_ns();
        if (op == OP_WRITE) {
            memset(buf + at, (int)(at >> 20), n);
        } else if (op == OP_COPY) {
            memcpy(buf + end + at, buf + at, n);
        } else {
            uint64_t acc = 0;
            const uint64_t *p = (const uint64_t *)(buf + at);
            for (size_t i = 0; i < n / sizeof *p; i++)
                acc += p[i];
            pk_load_mem_sink = acc;
        }
        w->ns[op] += pk_now_ns() - t;
        w->bytes[op] += n;
    }
    return true;
}

static void *mem_main(void *arg)
{
    mem_worker *w = arg;
    size_t size = (size_t)w->run->opt->size * CHUNK;
    unsigned char *buf = pk_load_buffer(w->run, size);
    for (bool go = buf != NULL; go;)
        for (int op = 0; op < NOPS && go; op++)
            go = pass(w, op, buf, size);
    free(buf);
    return NULL;
}

static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    mem_state *s = pk_load_new_state(run, offsetof(mem_state, w), opt->workers, sizeof s->w[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->count = opt->workers;
    if (!pk_load_workers_start(&s->workers, run, s->count, mem_main, s->w, sizeof s->w[0]))
        return PK_EXIT_ENV;
    return PK_CONTINUE;
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const mem_state *s = run->state;
    double all = 0, rate[NOPS] = {0};
    for (size_t i = 0; i < s->count; i++)
        for (int op = 0; op < NOPS; op++) {
            all += (double)s->w[i].bytes[op];
            if (s->w[i].ns[op])
                rate[op] += (double)s->w[i].bytes[op] * 1e9 / (double)s->w[i].ns[op];
        }
    pk_load_put_rate(out, "bytes_per_s", all, run->seconds);
    for (int op = 0; op < NOPS; op++)
        pk_load_put_double(out, rate_keys[op], rate[op] > 0 ? rate[op] : NAN);
}

const pk_load_kind pk_load_kind_mem = {
    .name = "mem",
    .options = PK_LOAD_OPT_WORKERS | PK_LOAD_OPT_SIZE,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = pk_load_stop_workers,
    .achieved = achieved,
};
