/* Counters kept as int or uint32_t but filled or read through a long's
 * pointer: one width on ILP32, two on LP64. */
#include <stdio.h>
#include <stdint.h>

struct stats {
    int packets;
    int errors; /* next to packets */
    long total_bytes;
};

/* A library call that reports a count through a long *. */
static void get_count(long *out)
{
    *out = 42;
}

/* A helper written for 32-bit words. */
static void set_word(uint32_t *word, uint32_t value)
{
    *word = value;
}

int main(void)
{
    struct stats s = {0, 7, -1};
    int *counter = &s.packets;
    long *as_long;

    get_count((long *)counter); /* want: PK103 */
    printf("packets %d, errors %d\n", s.packets, s.errors);

    s.errors = 1;
    as_long = (long *)&s.packets; /* want: PK103 */
    printf("read through long *: %ld\n", *as_long);

    set_word((uint32_t *)&s.total_bytes, 5); /* want: PK103 */
    printf("total bytes %ld\n", s.total_bytes);

    *(uint32_t *)&s.total_bytes = 9; /* want: PK103 */
    printf("total bytes %ld\n", s.total_bytes);
    return 0;
}
