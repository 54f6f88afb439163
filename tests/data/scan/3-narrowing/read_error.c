/* A serial port reader that keeps the byte count of the last read in an
 * unsigned int and later checks it for an error. read() returns ssize_t: its
 * -1 survives the trip through 32 bits only where ssize_t is 32 bits. */
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

struct port {
    int fd;
    unsigned int last_len;
    unsigned char buf[64];
};

static void port_read(struct port *p)
{
    p->last_len = read(p->fd, p->buf, sizeof p->buf); /* want: PK301 */
}

int main(void)
{
    struct port p = {-1, 0, {0}};
    ssize_t n;

    port_read(&p);
    n = p.last_len;
    printf("read failed: %d\n", n < 0);
    return 0;
}
