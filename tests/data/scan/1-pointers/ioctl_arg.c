/* A device control call. The new handler takes its argument as unsigned long,
 * as the Linux ioctl does; the old one was written with unsigned int. The
 * expected-address check stands for the kernel's access_ok(). */
#include <stdio.h>

#define CTL_GET_VERSION 1
#define EFAULT 14

struct version {
    int major;
    int minor;
};

static const void *client_buffer;

static int ctl_new(int cmd, unsigned long arg)
{
    struct version *v = (struct version *)arg; /* ok: PK102 */

    if (cmd != CTL_GET_VERSION)
        return -1;
    if (v != client_buffer)
        return -EFAULT;
    v->major = 2;
    v->minor = 1;
    return 0;
}

static int ctl_old(int cmd, unsigned int arg)
{
    struct version *v = (struct version *)arg; /* want: PK102 */

    if (cmd != CTL_GET_VERSION)
        return -1;
    if (v != client_buffer)
        return -EFAULT;
    v->major = 1;
    v->minor = 7;
    return 0;
}

int main(void)
{
    struct version v = {0, 0};
    int rc;

    client_buffer = &v;
    rc = ctl_new(CTL_GET_VERSION, (unsigned long)&v); /* ok: PK101 */
    printf("new: rc %d, version %d.%d\n", rc, v.major, v.minor);
    rc = ctl_old(CTL_GET_VERSION, (unsigned int)&v); /* want: PK101 */
    printf("old: rc %d, version %d.%d\n", rc, v.major, v.minor);
    return 0;
}
