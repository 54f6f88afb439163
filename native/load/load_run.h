/* `portkit-target load`: what every kind of load shares. cmd_load.c parses
 * the options into pk_load_options and hands the kind to pk_load_run_kind
 * (load_run.c), which starts it, waits for --duration or a signal, stops it,
 * checks nothing is left behind and writes the document (load_report.c).
 * Each kind (load_kind_cpu.c, load_kind_spawn.c, ...) is a pk_load_kind. */
#ifndef PK_LOAD_RUN_H
#define PK_LOAD_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "pk_cpus.h"

#define PK_LOAD_CMD "load"
#define PK_LOAD_SCHEMA "portkit.load/1"
#define PK_LOAD_MAX_FDS 1024 /* descriptors a load may own (net: 2 per pair) */

/* The options a kind takes (pk_load_kind.options); the others are refused. */
enum {
    PK_LOAD_OPT_WORKERS = 1u << 0,
    PK_LOAD_OPT_DUTY = 1u << 1,
    PK_LOAD_OPT_PERIOD = 1u << 2,
    PK_LOAD_OPT_CPUS = 1u << 3,
    PK_LOAD_OPT_PROGRAM = 1u << 4,
    PK_LOAD_OPT_PATH = 1u << 5,
    PK_LOAD_OPT_DIR = 1u << 6,
    PK_LOAD_OPT_SIZE = 1u << 7,
    PK_LOAD_OPT_PROTO = 1u << 8,
    PK_LOAD_OPT_GROUPS = 1u << 9,
    PK_LOAD_OPT_PAIRS = 1u << 10,
    PK_LOAD_OPT_PIPE = 1u << 11,
    PK_LOAD_OPT_CMD = 1u << 12,
    PK_LOAD_OPT_GRACE = 1u << 13,
};

typedef struct pk_load_options {
    bool json;
    double duration_s, grace_s;
    unsigned given;                  /* PK_LOAD_OPT_* on the command line */
    uint64_t workers, duty_percent, period_ms, size, groups, pairs;
    int cpus[PK_MAX_CPUS];           /* --cpus, ascending, once each */
    size_t cpu_count;
    const char *program, *path, *dir, *proto, *cmd;
    bool pipe;
} pk_load_options;

/* Values of params and achieved, written as JSON or as text lines. */
typedef enum { PK_LOAD_NULL, PK_LOAD_UINT, PK_LOAD_INT, PK_LOAD_DOUBLE, PK_LOAD_STRING, PK_LOAD_DOUBLES, PK_LOAD_INTS } pk_load_type;

typedef struct pk_load_value {
    const char *key;
    pk_load_type type;
    uint64_t u;
    int64_t i;
    double d;
    const char *s;
    const double *doubles; /* PK_LOAD_DOUBLES, count items */
    const int *ints;       /* PK_LOAD_INTS */
    size_t count;
} pk_load_value;

#define PK_LOAD_MAX_VALUES 24
typedef struct pk_load_values {
    pk_load_value v[PK_LOAD_MAX_VALUES];
    size_t n;
} pk_load_values;

void pk_load_put_null(pk_load_values *vs, const char *key);
void pk_load_put_uint(pk_load_values *vs, const char *key, uint64_t u);
void pk_load_put_int(pk_load_values *vs, const char *key, int64_t i);
void pk_load_put_double(pk_load_values *vs, const char *key, double d); /* NaN: null */
void pk_load_put_string(pk_load_values *vs, const char *key, const char *s);
void pk_load_put_doubles(pk_load_values *vs, const char *key, const double *d, size_t count);
void pk_load_put_ints(pk_load_values *vs, const char *key, const int *i, size_t count);
/* count / seconds, or null when no time passed. */
void pk_load_put_rate(pk_load_values *vs, const char *key, double count, double seconds);

/* One run of a load, shared by the harness, the kind and its workers. */
typedef struct pk_load_run {
    const pk_load_options *opt;
    atomic_bool stop;  /* the harness asks the workers to end */
    atomic_bool ended; /* the load ended by itself: finished or failed */
    pthread_mutex_t lock;
    bool failed;
    char error[256]; /* the first failure */
    double seconds;  /* how long the load ran, set before achieved() */
    bool stuck;      /* some worker did not stop (pk_load_workers_stop) */
    int fds[PK_LOAD_MAX_FDS]; /* the load's descriptors (pk_load_own_fd) */
    size_t fd_count;
    void *state;     /* the kind's own: one malloc'd block, which stop() leaves
                        for achieved() and the harness frees after the report */
} pk_load_run;

/* True until the harness asks the load to stop; workers check it at least
 * every PK_LOAD_POLL_MS. */
#define PK_LOAD_POLL_MS 50
bool pk_load_running(pk_load_run *run);
/* How long to wait now for t_ns: what is left of it, at most
 * PK_LOAD_POLL_MS; zero once it has passed. */
struct timespec pk_load_poll_slice(uint64_t t_ns);

/* The load cannot go on: keeps the first message (without the kind's name,
 * which the harness adds), ends the run early (stopped "error", exit 3).
 * Callable from any worker thread. */
void pk_load_fail(pk_load_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fd (when >= 0) belongs to the load: the harness closes it once the
 * workers have stopped, or when start() fails. Returns fd, or -1 (errno
 * EMFILE, fd closed) when the load owns too many. For start() only. */
int pk_load_own_fd(pk_load_run *run, int fd);
/* The load ended by itself before --duration (e.g. cmd's command exited). */
void pk_load_finish(pk_load_run *run);

typedef struct pk_load_kind {
    const char *name; /* the report's "kind" */
    unsigned options; /* PK_LOAD_OPT_* it takes */
    /* Fills defaults and checks the values: PK_CONTINUE or the exit code
     * after one line (2: bad usage, 3: this machine cannot). */
    int (*prepare)(pk_load_options *opt);
    void (*params)(const pk_load_options *opt, pk_load_values *out);
    /* Makes what the load needs and starts it: PK_CONTINUE, or the exit
     * code after one line (or with run->error set by pk_load_fail, which the
     * harness reports), with everything it made undone but run->state. */
    int (*start)(pk_load_run *run);
    /* Optional: called by the main thread every PK_LOAD_POLL_MS. */
    void (*poll)(pk_load_run *run);
    /* Ends the load (run->stop is set) and undoes all start made but
     * run->state: bounded. */
    void (*stop)(pk_load_run *run);
    /* What it achieved, over run->seconds. */
    void (*achieved)(const pk_load_run *run, pk_load_values *out);
} pk_load_kind;

/* Runs the kind for opt->duration_s and writes its document; the exit code. */
int pk_load_run_kind(const pk_load_kind *kind, const pk_load_options *opt);

#endif
