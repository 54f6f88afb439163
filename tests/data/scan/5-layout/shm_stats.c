/* Statistics shared with a 32-bit monitor process through a mapped file: the
 * struct is the file's layout, and the monitor reads it as 32-bit words. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

struct stats {
    unsigned long frames;
    unsigned long drops;
    long last_error;
    int state;
};

int main(void)
{
    FILE *f = tmpfile();
    int fd = fileno(f);
    struct stats *st;
    uint32_t words[4];

    if (ftruncate(fd, 4096) != 0)
        return 1;
    st = mmap(NULL, sizeof(struct stats), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0); /* want: PK501 */
    if (st == MAP_FAILED)
        return 1;
    st->frames = 1000;
    st->drops = 3;
    st->last_error = -5;
    st->state = 2;
    if (pread(fd, words, sizeof words, 0) != (ssize_t)sizeof words)
        return 1;
    printf("monitor reads frames %u, drops %u, error %d, state %d\n", (unsigned int)words[0],
           (unsigned int)words[1], (int)words[2], (int)words[3]);
    munmap(st, 4096);
    fclose(f);
    return 0;
}
