/* `load io`: the field report's "find /" load, bounded: N threads walk a
 * tree (--path, one filesystem, readdir + lstat of every entry, over and
 * over), while one more writes --size KiB and fsyncs, again and again, to a
 * file in a directory of its own (mkdtemp in --dir). The file is unlinked
 * as soon as it is open: its blocks are still written and synced, and not
 * even a SIGKILL of the agent leaves it behind; the directory is removed at
 * the end. Achieved: entries stat'ed, bytes written and fsyncs, per second. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_sys.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define DEFAULT_PATH "/usr"
#define DEFAULT_WRITE_KIB 64
#define MAX_WRITE_KIB 65536
#define FILE_BYTES_CAP (16u << 20) /* rewritten from the start past this */
#define WALK_FDS 4                 /* directories nftw keeps open per walker */

typedef struct io_walker {
    pk_load_run *run;
    uint64_t entries, errors, walks;
} io_walker;

typedef struct io_writer {
    pk_load_run *run;
    int fd;
    uint64_t bytes, fsyncs;
} io_writer;

typedef struct io_state {
    pk_load_workers walkers, writers;
    char dir[PATH_MAX];
    io_writer writer;
    size_t count;
    io_walker w[];
} io_state;

static int prepare(pk_load_options *opt)
{
    if (!opt->path) /* a board's root may hold no /usr */
        opt->path = access(DEFAULT_PATH, R_OK | X_OK) == 0 ? DEFAULT_PATH : "/";
    if (!opt->dir)
        opt->dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if (!(opt->given & PK_LOAD_OPT_SIZE))
        opt->size = DEFAULT_WRITE_KIB;
    if (opt->size > MAX_WRITE_KIB)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--size %llu: io writes at most %d KiB per fsync",
                       (unsigned long long)opt->size, MAX_WRITE_KIB);
    if (!(opt->given & PK_LOAD_OPT_WORKERS))
        opt->workers = pk_allowed_cpu_count();
    struct stat st;
    const char *bad = stat(opt->path, &st) != 0 ? strerror(errno) : !S_ISDIR(st.st_mode) ? "not a directory" : NULL;
    if (bad)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--path '%s': %s", opt->path, bad);
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "workers", opt->workers);
    pk_load_put_string(out, "path", opt->path);
    pk_load_put_string(out, "dir", opt->dir);
    pk_load_put_uint(out, "write_bytes", opt->size * 1024);
}

/* nftw has no argument for the callback: each walker's own is here. */
static _Thread_local io_walker *current;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)path, (void)st, (void)ftw;
    if (type == FTW_NS)
        current->errors++;
    else
        current->entries++;
    return pk_load_running(current->run) ? 0 : 1; /* non-zero ends the walk */
}

static void *walk_main(void *arg)
{
    io_walker *w = arg;
    current = w;
    while (pk_load_running(w->run))
        if (nftw(w->run->opt->path, visit, WALK_FDS, FTW_PHYS | FTW_MOUNT) == 0)
            w->walks++;
    return NULL;
}

static void *write_main(void *arg)
{
    io_writer *w = arg;
    size_t size = (size_t)w->run->opt->size * 1024;
    size_t cap = size > FILE_BYTES_CAP ? size : FILE_BYTES_CAP;
    char *buf = pk_load_buffer(w->run, size);
    off_t offset = 0;
    while (buf && pk_load_running(w->run)) {
        memset(buf, (int)(w->fsyncs & 0xff), size); /* new bytes every time */
        ssize_t n = pwrite(w->fd, buf, size, offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || fsync(w->fd) != 0) {
            pk_load_fail(w->run, "cannot write and fsync in %s: %s", w->run->opt->dir,
                         n == 0 ? "nothing written" : strerror(errno));
            break;
        }
        w->bytes += (uint64_t)n;
        w->fsyncs++;
        offset += n;
        if ((size_t)offset + size > cap)
            offset = 0;
    }
    free(buf);
    return NULL;
}

static int make_file(io_state *s, const pk_load_options *opt)
{
    if (snprintf(s->dir, sizeof s->dir, "%s/portkit-load-XXXXXX", opt->dir) >= (int)sizeof s->dir)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--dir '%s': the path is too long", opt->dir);
    if (!mkdtemp(s->dir)) {
        s->dir[0] = '\0';
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "io: cannot create a temporary directory in %s: %s", opt->dir,
                       strerror(errno));
    }
    char file[PATH_MAX + 16];
    snprintf(file, sizeof file, "%s/load.dat", s->dir);
    s->writer.fd = pk_load_own_fd(s->writer.run, open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (s->writer.fd < 0) {
        int err = errno;
        unlink(file);
        rmdir(s->dir);
        return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "io: cannot create a file in %s: %s", s->dir, strerror(err));
    }
    unlink(file);
    return PK_CONTINUE;
}

/* The directory is empty (its file is unlinked): it goes at once, even
 * while the harness still holds the file open. */
static void remove_dir(io_state *s)
{
    rmdir(s->dir);
}

static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    io_state *s = pk_load_new_state(run, offsetof(io_state, w), opt->workers, sizeof s->w[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->count = opt->workers;
    s->writer = (io_writer){.run = run, .fd = -1};
    int status = make_file(s, opt);
    if (status != PK_CONTINUE)
        return status;
    if (!pk_load_workers_start(&s->writers, run, 1, write_main, &s->writer, sizeof s->writer)) {
        remove_dir(s);
        return PK_EXIT_ENV;
    }
    if (!pk_load_workers_start(&s->walkers, run, s->count, walk_main, s->w, sizeof s->w[0])) {
        pk_load_workers_stop(&s->writers, run, 2.0, NULL, NULL);
        remove_dir(s);
        return PK_EXIT_ENV;
    }
    return PK_CONTINUE;
}

static void stop(pk_load_run *run)
{
    io_state *s = run->state;
    /* A stat or an fsync cannot be interrupted: a slow disk gets time. */
    pk_load_workers_stop(&s->walkers, run, 5.0, NULL, NULL);
    pk_load_workers_stop(&s->writers, run, 5.0, NULL, NULL);
    remove_dir(s);
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const io_state *s = run->state;
    uint64_t entries = 0, errors = 0, walks = 0;
    for (size_t i = 0; i < s->count; i++) {
        entries += s->w[i].entries;
        errors += s->w[i].errors;
        walks += s->w[i].walks;
    }
    pk_load_put_rate(out, "files_per_s", (double)entries, run->seconds);
    pk_load_put_uint(out, "files", entries);
    pk_load_put_uint(out, "stat_errors", errors);
    pk_load_put_uint(out, "walks", walks);
    pk_load_put_rate(out, "bytes_per_s", (double)s->writer.bytes, run->seconds);
    pk_load_put_rate(out, "fsyncs_per_s", (double)s->writer.fsyncs, run->seconds);
    pk_load_put_uint(out, "bytes_written", s->writer.bytes);
}

const pk_load_kind pk_load_kind_io = {
    .name = "io",
    .options = PK_LOAD_OPT_WORKERS | PK_LOAD_OPT_PATH | PK_LOAD_OPT_DIR | PK_LOAD_OPT_SIZE,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = stop,
    .achieved = achieved,
};
