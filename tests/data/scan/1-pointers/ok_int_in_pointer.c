/* An I/O layer from a 32-bit XML library: a file descriptor is handed to
 * the read callback as its void * context, put in and taken out through
 * ptrdiff_t, as C code says "this pointer carries an integer". The int comes
 * back whole on both data models. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*read_callback)(void *context, char *buffer, int len);

static int fd_read(void *context, char *buffer, int len)
{
    int fd = (int)(ptrdiff_t)context; /* ok: PK101 */
    return snprintf(buffer, (size_t)len, "fd %d", fd);
}

static int slot_of(void *tag)
{
    return (int)(intptr_t)tag; /* ok: PK101 */
}

int main(void)
{
    char buffer[32];
    read_callback reader = fd_read;

    reader((void *)(ptrdiff_t)7, buffer, sizeof buffer);
    printf("%s, slot %d\n", buffer, slot_of((void *)(intptr_t)3));
    return 0;
}
