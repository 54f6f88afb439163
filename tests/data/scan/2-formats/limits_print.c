/* A board self-test that prints the ranges of the counters it keeps. The
 * `long` ones were printed with %d since the first ARM9 board. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    printf("event counter range: %d..%d\n", LONG_MIN, LONG_MAX); /* want: PK201 */
    printf("sample counter range: %d..%d\n", INT_MIN, INT_MAX); /* ok: PK201 */
    printf("frame counter max: %" PRIu32 "\n", UINT32_MAX); /* ok: PK201 */
    printf("byte counter max: %" PRId64 "\n", INT64_MAX); /* ok: PK201 */
    printf("wrap counter max: %lld\n", LLONG_MAX); /* ok: PK201 */
    printf("largest intmax_t: %jd\n", INTMAX_MAX); /* ok: PK201 */
    return 0;
}
