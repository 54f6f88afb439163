/* All-ones and sign masks on operands that are 32 bits everywhere, a uint64_t
 * split on purpose, the limits from <limits.h> and <stdint.h>, and the clamp
 * before a narrowing that names INT_MAX. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static int clamp_to_int(long request)
{
    if (request > INT_MAX) /* ok: PK403 */
        request = INT_MAX; /* ok: PK403 */
    return (int)request;
}

int main(void)
{
    uint32_t status = 0xFFFFFFFFu;
    uint64_t stamp = 0x123456789ULL;
    int32_t sample = -5;
    unsigned long watermark = ULONG_MAX;
    long result = -1;
    size_t len = (size_t)-1;
    uint32_t low = stamp & 0xFFFFFFFF; /* ok: PK403 PK301 */

    printf("status unset: %d\n", status == 0xFFFFFFFF); /* ok: PK403 */
    printf("low word: %#" PRIx32 "\n", low);
    printf("magnitude: %" PRId32 "\n", sample & 0x7FFFFFFF); /* ok: PK403 */
    printf("sign: %d\n", (sample & INT32_MIN) != 0); /* ok: PK403 */
    printf("no watermark: %d\n", watermark == ULONG_MAX); /* ok: PK403 */
    printf("failed: %d\n", result == -1); /* ok: PK403 */
    printf("bad length: %d\n", len == SIZE_MAX); /* ok: PK403 */
    printf("clamped: %d\n", clamp_to_int(result + 8));
    return 0;
}
