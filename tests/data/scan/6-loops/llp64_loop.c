/* scan-args: --to LLP64 */
/* Linux-style loops with long indices, built for Win64: long stays 32 bits,
 * size_t does not. Against a long bound, an int index was and stays as wide. */
#include <stddef.h>

long count_nonzero(const unsigned char *p, size_t len)
{
    long i, n = 0;

    for (i = 0; i < len; i++) /* want: PK601 */
        n += p[i] != 0;
    return n;
}

long sum(const long *v, long count)
{
    long i, total = 0;

    for (i = 0; i < count; i++) /* ok: PK601 */
        total += v[i];
    return total;
}

int sum_ints(const int *v, long count)
{
    int i, total = 0;

    for (i = 0; i < count; i++) /* ok: PK601 */
        total += v[i];
    return total;
}
