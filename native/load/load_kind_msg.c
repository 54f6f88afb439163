/* `load msg`: scheduler and IPC load in the manner of hackbench. In each of
 * --groups groups, --pairs receivers each own a channel (a UNIX socketpair,
 * or a pipe with --pipe), and --pairs senders write --size-byte messages to
 * every receiver of their group in turn, so that threads keep waking each
 * other. Channels are non-blocking and every wait is a poll of at most
 * PK_LOAD_POLL_MS. Achieved: messages (bytes received / --size) and bytes
 * per second. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define DEFAULT_GROUPS 2
#define DEFAULT_PAIRS 4
#define DEFAULT_SIZE 100 /* hackbench's message */
#define MAX_SIZE 65536
#define READ_BUFFER 65536

typedef struct msg_thread {
    pk_load_run *run;
    int *fds;      /* a receiver: its channel's read end; a sender: the write ends of its group */
    size_t nfds;
    bool sender;
    uint64_t bytes;
} msg_thread;

typedef struct msg_state {
    pk_load_workers workers; /* first: pk_load_stop_workers */
    size_t threads, channels;
    int fds[PK_LOAD_MAX_THREADS]; /* a channel per receiver: see open_channels */
    msg_thread t[];
} msg_state;

static int prepare(pk_load_options *opt)
{
    if (!(opt->given & PK_LOAD_OPT_GROUPS))
        opt->groups = DEFAULT_GROUPS;
    if (!(opt->given & PK_LOAD_OPT_PAIRS))
        opt->pairs = DEFAULT_PAIRS;
    if (!(opt->given & PK_LOAD_OPT_SIZE))
        opt->size = DEFAULT_SIZE;
    if (opt->size > MAX_SIZE)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--size %llu: messages of at most %d bytes",
                       (unsigned long long)opt->size, MAX_SIZE);
    if (opt->groups * opt->pairs * 2 > PK_LOAD_MAX_THREADS)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--groups %llu x --pairs %llu: more than %d threads",
                       (unsigned long long)opt->groups, (unsigned long long)opt->pairs, PK_LOAD_MAX_THREADS);
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "groups", opt->groups);
    pk_load_put_uint(out, "pairs", opt->pairs);
    pk_load_put_uint(out, "size_bytes", opt->size);
    pk_load_put_string(out, "channel", opt->pipe ? "pipe" : "socketpair");
}

static void wait_for(int fd, short events)
{
    struct pollfd p = {.fd = fd, .events = events};
    poll(&p, 1, PK_LOAD_POLL_MS);
}

static void *msg_main(void *arg)
{
    msg_thread *t = arg;
    size_t size = t->sender ? (size_t)t->run->opt->size : READ_BUFFER;
    char *buf = pk_load_buffer(t->run, size);
    for (size_t next = 0; buf && pk_load_running(t->run); next = (next + 1) % t->nfds) {
        int fd = t->fds[next];
        ssize_t n = t->sender ? write(fd, buf, size) : read(fd, buf, size);
        if (n > 0) {
            t->bytes += (uint64_t)n;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            wait_for(fd, t->sender ? POLLOUT : POLLIN);
        } else if (n < 0 && errno != EINTR) {
            pk_load_fail(t->run, "%s: %s", t->sender ? "write" : "read", strerror(errno));
            break;
        }
    }
    free(buf);
    return NULL;
}

static int open_channel(bool pipe_channel, int fds[2])
{
    if (pipe_channel)
        return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds);
}

/* A channel per receiver: fds[] holds the write ends first, a group's side
 * by side so that a sender's list is a slice of it, then the read ends. */
static int open_channels(pk_load_run *run, msg_state *s, const pk_load_options *opt)
{
    s->channels = opt->groups * opt->pairs;
    int *writes = s->fds, *reads = s->fds + s->channels;
    for (size_t c = 0; c < s->channels; c++) {
        int pair[2];
        if (open_channel(opt->pipe, pair) != 0 || (reads[c] = pk_load_own_fd(run, pair[0])) < 0 ||
            (writes[c] = pk_load_own_fd(run, pair[1])) < 0)
            return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "msg: cannot open %zu %s: %s", s->channels,
                           opt->pipe ? "pipes" : "socketpairs", strerror(errno));
    }
    return PK_CONTINUE;
}

static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    size_t threads = 2 * opt->groups * opt->pairs;
    msg_state *s = pk_load_new_state(run, offsetof(msg_state, t), threads, sizeof s->t[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->threads = threads;
    int status = open_channels(run, s, opt);
    if (status != PK_CONTINUE)
        return status;
    size_t pairs = opt->pairs, k = 0;
    for (size_t g = 0; g < opt->groups; g++)
        for (size_t i = 0; i < pairs; i++) {
            s->t[k++] = (msg_thread){.run = run, .sender = true, .fds = s->fds + g * pairs, .nfds = pairs};
            s->t[k++] = (msg_thread){.run = run, .fds = s->fds + s->channels + g * pairs + i, .nfds = 1};
        }
    if (!pk_load_workers_start(&s->workers, run, s->threads, msg_main, s->t, sizeof s->t[0]))
        return PK_EXIT_ENV;
    return PK_CONTINUE;
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const msg_state *s = run->state;
    uint64_t received = 0;
    for (size_t i = 0; i < s->threads; i++)
        if (!s->t[i].sender)
            received += s->t[i].bytes;
    pk_load_put_rate(out, "messages_per_s", (double)received / (double)run->opt->size, run->seconds);
    pk_load_put_rate(out, "bytes_per_s", (double)received, run->seconds);
}

const pk_load_kind pk_load_kind_msg = {
    .name = "msg",
    .options = PK_LOAD_OPT_GROUPS | PK_LOAD_OPT_PAIRS | PK_LOAD_OPT_SIZE | PK_LOAD_OPT_PIPE,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = pk_load_stop_workers,
    .achieved = achieved,
};
