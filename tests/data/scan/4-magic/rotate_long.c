/* Bit helpers from a 32-bit codec library, now fed unsigned long. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#define BITS_PER_LONG 32

static unsigned long rotl(unsigned long x, unsigned int n)
{
    return (x << n) | (x >> (32 - n)); /* want: PK402 */
}

static int popcount_long(unsigned long x)
{
    int bit, n = 0;

    for (bit = 0; bit < 32; bit++) /* want: PK402 */
        if (x & (1UL << bit))
            n++;
    return n;
}

static unsigned long low_mask(unsigned int bits)
{
    return bits >= BITS_PER_LONG ? ~0UL : (1UL << bits) - 1; /* want: PK402 */
}

static uint32_t rotl32(uint32_t x, unsigned int n)
{
    return (x << n) | (x >> (32 - n)); /* ok: PK402 */
}

static int popcount_fixed(unsigned long x)
{
    unsigned int bit;
    int n = 0;

    for (bit = 0; bit < (unsigned int)(CHAR_BIT * sizeof x); bit++) /* ok: PK402 */
        if (x & (1UL << bit))
            n++;
    return n;
}

int main(void)
{
    printf("rotl(0x80000001, 4) = %#lx\n", rotl(0x80000001UL, 4));
    printf("rotl32(0x80000001, 4) = %#x\n", (unsigned int)rotl32(0x80000001u, 4));
    printf("bits set in 0xf0f0: %d %d\n", popcount_long(0xf0f0UL), popcount_fixed(0xf0f0UL));
    printf("mask of 40 bits: %#lx\n", low_mask(40));
    return 0;
}
