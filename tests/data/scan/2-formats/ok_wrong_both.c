/* Format mismatches that are the same on every target: a 64-bit argument
 * printed with %d is wrong on ILP32 as well, so porting changes nothing (a
 * compiler warning's matter, not a porting one). And %ld for long long, or
 * %lld for long, were wrong only on the 32-bit side: the widths agree on LP64. */
#include <stdint.h>
#include <stdio.h>

void print_stats(long long bytes, int64_t frames, long drops)
{
    printf("bytes %d\n", bytes); /* ok: PK201 */
    printf("frames %d\n", frames); /* ok: PK201 */
    printf("bytes %ld\n", bytes); /* ok: PK201 */
    printf("drops %lld\n", drops); /* ok: PK201 */
}
