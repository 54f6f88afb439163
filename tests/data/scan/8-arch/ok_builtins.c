/* GCC built-ins that every target has: bit counts and byte swaps on
 * fixed-width values, branch hints, prefetch. And a function whose name
 * only looks like a NEON intrinsic. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

static int16_t vqadd_s16_ref(int16_t a, int16_t b)
{
    int s = a + b;

    return (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
}

int main(void)
{
    uint32_t word = 0x00f00010u;
    uint64_t wide = 0x0102030405060708ULL;
    int samples[4] = {1, 2, 3, 4};

    __builtin_prefetch(&samples[2]); /* ok: PK802 */
    if (__builtin_expect(word != 0, 1)) /* ok: PK802 */
        printf("clz %d, ctz %d, popcount %d\n", __builtin_clz(word), __builtin_ctz(word), __builtin_popcount(word)); /* ok: PK802 */
    printf("bswap32 %#" PRIx32 "\n", __builtin_bswap32(word)); /* ok: PK802 */
    printf("bswap64 %#" PRIx64 "\n", __builtin_bswap64(wide)); /* ok: PK802 */
    printf("saturated add %d\n", vqadd_s16_ref(30000, 10000)); /* ok: PK802 */
    return 0;
}
