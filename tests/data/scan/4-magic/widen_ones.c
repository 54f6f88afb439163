/* Masks and interrupt flags from a 32-bit GPIO driver, now kept in
 * unsigned long and size_t. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    unsigned long all = ~0U; /* want: PK404 */
    unsigned long top = 1 << 31; /* want: PK404 */
    size_t limit = ~0U; /* want: PK404 */
    unsigned long pending = 0;
    int irq = 31;

    pending |= 1 << irq; /* want: PK404 */
    printf("all ones: %d\n", all == ULONG_MAX);
    printf("top bit: %#lx\n", top);
    printf("no limit: %d\n", limit == SIZE_MAX);
    printf("pending: %#lx\n", pending);
    return 0;
}
