/* The field report's long_union_t as a soft-float helper used it: a double taken
 * apart into its two 32-bit halves through long (little-endian: low word
 * first). */
#include <stdio.h>

typedef union {
    double d;
    long l[2]; /* want: PK502 */
} long_union_t;

static double make_double(long hi, long lo)
{
    long_union_t u;

    u.l[0] = lo;
    u.l[1] = hi;
    return u.d;
}

int main(void)
{
    long_union_t u;

    u.l[0] = 0;
    u.l[1] = 0;
    u.d = -2.5;
    printf("1.0 from its halves: %g\n", make_double(0x3ff00000L, 0));
    printf("high word says negative: %d\n", u.l[1] < 0);
    return 0;
}
