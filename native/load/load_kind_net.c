/* `load net`: a network flood in the spirit of the field report's `ping -f`,
 * without raw sockets or root: per pair, a sender thread sends --size bytes
 * as fast as it can to a receiver thread over 127.0.0.1 (UDP datagrams, or
 * one TCP connection with --proto tcp). Every socket is bound to loopback
 * only, times out after PK_LOAD_POLL_MS so no thread waits unbounded, and is
 * closed at the end. Achieved: packets (datagrams received, or TCP sends)
 * and bytes received per second; for UDP the share lost on the way. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "load_modes.h"
#include "load_sys.h"
#include "load_workers.h"
#include "pk_cli.h"
#include "pk_options.h"

#define DEFAULT_SIZE 64 /* ping's 56 bytes and its ICMP header */
#define MAX_UDP_SIZE 65507
#define MAX_TCP_SIZE (1u << 20)
#define RECV_BUFFER (64u * 1024u)
#define CONNECT_MS 2000

typedef struct net_end {
    pk_load_run *run;
    bool sender;
    int fd;
    uint64_t packets, bytes;
} net_end;

typedef struct net_state {
    pk_load_workers workers; /* first: pk_load_stop_workers */
    size_t pairs;
    net_end e[]; /* sender, receiver, sender, receiver, ... */
} net_state;

static bool is_tcp(const pk_load_options *opt)
{
    return !strcmp(opt->proto, "tcp");
}

static int prepare(pk_load_options *opt)
{
    if (!opt->proto)
        opt->proto = "udp";
    if (strcmp(opt->proto, "udp") && strcmp(opt->proto, "tcp"))
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--proto '%s': expected udp or tcp", opt->proto);
    if (!(opt->given & PK_LOAD_OPT_SIZE))
        opt->size = DEFAULT_SIZE;
    uint64_t max = is_tcp(opt) ? MAX_TCP_SIZE : MAX_UDP_SIZE;
    if (opt->size > max)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--size %llu: at most %llu bytes over %s",
                       (unsigned long long)opt->size, (unsigned long long)max, opt->proto);
    if (!(opt->given & PK_LOAD_OPT_WORKERS))
        opt->workers = 1;
    if (opt->workers * 2 > PK_LOAD_MAX_THREADS)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--workers %llu: net runs at most %d pairs of threads",
                       (unsigned long long)opt->workers, PK_LOAD_MAX_THREADS / 2);
    return PK_CONTINUE;
}

static void params(const pk_load_options *opt, pk_load_values *out)
{
    pk_load_put_uint(out, "workers", opt->workers);
    pk_load_put_string(out, "proto", opt->proto);
    pk_load_put_uint(out, "size_bytes", opt->size);
}

static void *net_main(void *arg)
{
    net_end *e = arg;
    size_t size = e->sender ? (size_t)e->run->opt->size : RECV_BUFFER;
    char *buf = pk_load_buffer(e->run, size);
    bool stream = is_tcp(e->run->opt);
    while (buf && pk_load_running(e->run)) {
        ssize_t n = e->sender ? send(e->fd, buf, size, MSG_NOSIGNAL) : recv(e->fd, buf, size, 0);
        if (n > 0) {
            e->packets++;
            e->bytes += (uint64_t)n;
        } else if (n == 0 && stream) {
            break; /* the sender closed: only at the end */
        } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ENOBUFS &&
                   errno != ECONNREFUSED) {
            pk_load_fail(e->run, "%s over 127.0.0.1: %s", e->sender ? "send" : "receive", strerror(errno));
            break;
        }
    }
    free(buf);
    return NULL;
}

/* Waits bounded by PK_LOAD_POLL_MS; a TCP close resets the connection, so
 * that not even a TIME_WAIT entry stays behind. */
static void set_options(int fd, bool tcp)
{
    struct timeval tv = {0, PK_LOAD_POLL_MS * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct linger reset = {1, 0};
    if (tcp)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
}

static int new_socket(bool tcp)
{
    int fd = socket(AF_INET, (tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
    if (fd >= 0)
        set_options(fd, tcp);
    return fd;
}

/* Binds fd to 127.0.0.1 on a port the kernel picks, into *addr. */
static int bind_loopback(int fd, struct sockaddr_in *addr)
{
    *addr = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof *addr;
    if (bind(fd, (struct sockaddr *)addr, sizeof *addr) != 0 || getsockname(fd, (struct sockaddr *)addr, &len) != 0)
        return -1;
    return 0;
}

static int connect_udp(pk_load_run *run, net_end *sender, net_end *receiver)
{
    struct sockaddr_in addr;
    receiver->fd = pk_load_own_fd(run, new_socket(false));
    sender->fd = pk_load_own_fd(run, new_socket(false));
    if (receiver->fd < 0 || sender->fd < 0 || bind_loopback(receiver->fd, &addr) != 0)
        return -1;
    return connect(sender->fd, (struct sockaddr *)&addr, sizeof addr);
}

/* The listener lives only until its one connection is accepted. */
static int connect_tcp(pk_load_run *run, net_end *sender, net_end *receiver)
{
    struct sockaddr_in addr;
    int listener = new_socket(true);
    sender->fd = pk_load_own_fd(run, new_socket(true));
    int rc = -1;
    if (listener >= 0 && sender->fd >= 0 && bind_loopback(listener, &addr) == 0 && listen(listener, 1) == 0 &&
        connect(sender->fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        struct pollfd p = {.fd = listener, .events = POLLIN};
        if (poll(&p, 1, CONNECT_MS) == 1 &&
            (receiver->fd = pk_load_own_fd(run, accept4(listener, NULL, NULL, SOCK_CLOEXEC))) >= 0) {
            set_options(receiver->fd, true);
            rc = 0;
        }
    }
    int err = errno;
    if (listener >= 0)
        close(listener);
    errno = err;
    return rc;
}



static int start(pk_load_run *run)
{
    const pk_load_options *opt = run->opt;
    net_state *s = pk_load_new_state(run, offsetof(net_state, e), 2 * opt->workers, sizeof s->e[0]);
    if (!s)
        return PK_EXIT_ENV; /* the harness reports run->error */
    s->pairs = opt->workers;
    for (size_t i = 0; i < 2 * s->pairs; i++) {
        s->e[i].sender = i % 2 == 0;
        s->e[i].fd = -1;
    }
    for (size_t p = 0; p < s->pairs; p++) {
        net_end *sender = &s->e[2 * p], *receiver = &s->e[2 * p + 1];
        if ((is_tcp(opt) ? connect_tcp(run, sender, receiver) : connect_udp(run, sender, receiver)) != 0)
            return pk_fail(PK_EXIT_ENV, PK_LOAD_CMD, "net: cannot connect two %s sockets over 127.0.0.1: %s",
                           opt->proto, strerror(errno));
    }
    if (!pk_load_workers_start(&s->workers, run, 2 * s->pairs, net_main, s->e, sizeof s->e[0]))
        return PK_EXIT_ENV;
    return PK_CONTINUE;
}

static void achieved(const pk_load_run *run, pk_load_values *out)
{
    const net_state *s = run->state;
    uint64_t sent = 0, received = 0, bytes = 0;
    for (size_t p = 0; p < s->pairs; p++) {
        sent += s->e[2 * p].packets;
        received += s->e[2 * p + 1].packets;
        bytes += s->e[2 * p + 1].bytes;
    }
    bool tcp = is_tcp(run->opt);
    /* Over TCP a packet is one send of --size bytes (the receiver reads a
     * stream); over UDP one datagram received. */
    pk_load_put_rate(out, "packets_per_s", (double)(tcp ? sent : received), run->seconds);
    pk_load_put_rate(out, "bytes_per_s", (double)bytes, run->seconds);
    pk_load_put_uint(out, "packets_sent", sent);
    pk_load_put_double(out, "lost_percent", !tcp && sent ? 100.0 * (double)(sent - received) / (double)sent : NAN);
}

const pk_load_kind pk_load_kind_net = {
    .name = "net",
    .options = PK_LOAD_OPT_WORKERS | PK_LOAD_OPT_SIZE | PK_LOAD_OPT_PROTO,
    .prepare = prepare,
    .params = params,
    .start = start,
    .stop = pk_load_stop_workers,
    .achieved = achieved,
};
