/* A message library's helpers from a 32-bit telematics unit: every length is
 * an int or unsigned int, whatever strlen, read, ftell and sizeof arithmetic
 * return. The fixed versions at the end keep the width. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct rec {
    int id;
    char name[28];
};

static void set_len(int *slot, int len)
{
    *slot = len;
}

int name_len(const char *s)
{
    return strlen(s); /* want: PK301 */
}

int copy_name(char *dst, int cap, const char *src)
{
    int len = strlen(src); /* want: PK301 */

    if (len >= cap)
        len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
    return len;
}

int file_size(FILE *f)
{
    int size;

    fseek(f, 0, SEEK_END);
    size = ftell(f); /* want: PK301 */
    rewind(f);
    return size;
}

unsigned int table_bytes(int count)
{
    /* an int count: the product's low 32 bits, all that is kept, are the same in both models */
    unsigned int bytes = count * sizeof(struct rec); /* ok: PK301 */

    return bytes;
}

unsigned int table_bytes_of(size_t count)
{
    unsigned int bytes = count * sizeof(struct rec); /* want: PK301 */

    return bytes;
}

int room_left(size_t used)
{
    int room = 256 - used; /* want: PK301 */

    return room;
}

int drain(int fd, char *buf, int cap)
{
    /* read() returns at most the int it was asked for: nothing is dropped */
    int got = read(fd, buf, cap); /* ok: PK301 */

    return got;
}

int drain_all(int fd, char *buf, size_t size)
{
    int got = read(fd, buf, size); /* want: PK301 */

    return got;
}

void record_len(int *slot, const char *s)
{
    set_len(slot, strlen(s)); /* want: PK301 */
}

size_t name_len_fixed(const char *s)
{
    return strlen(s); /* ok: PK301 */
}

ssize_t drain_fixed(int fd, char *buf, size_t cap)
{
    ssize_t got = read(fd, buf, cap); /* ok: PK301 */

    return got;
}

int name_len_checked(const char *s)
{
    size_t n = strlen(s);

    return n > INT_MAX ? -1 : (int)n; /* ok: PK301 */
}
