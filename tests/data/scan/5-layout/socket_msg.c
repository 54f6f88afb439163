/* A media server's control message, sent as raw bytes over a UNIX socket to
 * clients that may be 32-bit ones. */
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

struct ctl_msg {
    int cmd;
    long arg;
    void *cookie;
};

struct ctl_msg32 {
    int32_t cmd;
    int32_t arg;
    uint32_t cookie_id;
};

int main(void)
{
    struct ctl_msg out = {3, 100, NULL}, in;
    struct ctl_msg32 out32 = {3, 100, 9}, in32;
    ssize_t n;
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != 0)
        return 1;
    send(sv[0], &out, sizeof out, 0); /* want: PK501 */
    n = recv(sv[1], &in, sizeof(struct ctl_msg), 0); /* want: PK501 */
    printf("control message: %d bytes, arg %ld\n", (int)n, in.arg);
    send(sv[0], &out32, sizeof out32, 0); /* ok: PK501 */
    n = recv(sv[1], &in32, sizeof in32, 0); /* ok: PK501 */
    printf("fixed message: %d bytes, arg %d\n", (int)n, (int)in32.arg);
    close(sv[0]);
    close(sv[1]);
    return 0;
}
