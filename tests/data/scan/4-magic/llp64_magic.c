/* scan-args: --to LLP64 */
/* The magic numbers seen from Win64: long is still 4 bytes there, so only
 * pointers and size_t outgrow them. */
#include <stddef.h>
#include <stdlib.h>

long *longs_alloc(size_t n)
{
    return malloc(n * 4); /* ok: PK401 */
}

void **ptrs_alloc(size_t n)
{
    return malloc(n * 4); /* want: PK401 */
}

unsigned long rotl(unsigned long x, unsigned int n)
{
    return (x << n) | (x >> (32 - n)); /* ok: PK402 */
}

int len_invalid(size_t n)
{
    return n == 0xFFFFFFFF; /* want: PK403 */
}

int addr_invalid(unsigned long a)
{
    return a == 0xFFFFFFFF; /* ok: PK403 */
}

size_t no_limit(void)
{
    return ~0U; /* want: PK404 */
}

unsigned long all_ones(void)
{
    return ~0U; /* ok: PK404 */
}
