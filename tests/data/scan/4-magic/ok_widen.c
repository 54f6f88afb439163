/* Widening that means the same on every target: unsigned long constants, and
 * int values widened into types that were 64 bits on ILP32 already. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    unsigned long all = ~0UL; /* ok: PK404 */
    uint64_t low32 = ~0U; /* ok: PK404 */
    long long top = 1 << 31; /* ok: PK404 */
    unsigned int mask = ~0U; /* ok: PK404 */
    unsigned long small = 1 << 4; /* ok: PK404 */
    unsigned long pending = 0;
    int irq = 31;

    pending |= 1UL << irq; /* ok: PK404 */
    printf("all ones: %d\n", all == ULONG_MAX);
    printf("low 32: %#" PRIx64 ", top %lld\n", low32, top);
    printf("mask %#x, small %lu\n", mask, small);
    printf("bit 31 pending: %d\n", (pending & (1UL << irq)) != 0);
    return 0;
}
