/* Size bookkeeping from a 32-bit sensor gateway: sample counts are ints,
 * sizes come from sizeof (a size_t) and go back into ints, and reads ask for
 * a fixed number of bytes. None of it changes on LP64: every value that goes
 * in is 32-bit, + - * << keep the same low 32 bits whatever the upper half
 * holds, and a read returns at most what it was asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sample {
    short channel;
    short value;
    int stamp;
};

static int bytes_for(int count)
{
    return count * sizeof(struct sample); /* ok: PK301 */
}

static void *pool_get(int bytes)
{
    return bytes > 0 ? malloc(bytes) : NULL;
}

int main(void)
{
    int count = 100, shift = 3;
    int header = sizeof(struct sample) * (count + 1) - 4; /* ok: PK301 */
    int scaled = (count << shift) * sizeof(short); /* ok: PK301 */
    void *block = pool_get(count * sizeof(struct sample)); /* ok: PK301 */
    char line[32];
    int fds[2];
    int got;

    if (pipe(fds) != 0)
        return 1;
    if (write(fds[1], "ch0=17", 6) != 6)
        return 1;
    got = read(fds[0], line, sizeof line - 1); /* ok: PK301 */
    line[got > 0 ? got : 0] = '\0';
    printf("%d bytes for %d samples, header %d, scaled %d\n", bytes_for(count), count, header, scaled);
    printf("block %s, read %d bytes: %s\n", block ? "allocated" : "none", got, line);
    free(block);
    return 0;
}
