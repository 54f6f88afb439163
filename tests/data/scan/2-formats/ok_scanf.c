/* scanf directives that write exactly the width of what they point to, and
 * two that are wrong the same way on every target (%d into a long long writes
 * its low half on ILP32 and LP64 alike: not a porting matter). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    long timeout = 0;
    unsigned long mask = 0;
    size_t len = 0;
    uint32_t id = 0;
    short trim = 0;
    long long serial = 0;
    unsigned char level = 0;
    long long low_only = 0;

    sscanf("-250", "%ld", &timeout); /* ok: PK202 */
    sscanf("ff00", "%lx", &mask); /* ok: PK202 */
    sscanf("4096", "%zu", &len); /* ok: PK202 */
    sscanf("17", "%" SCNu32, &id); /* ok: PK202 */
    sscanf("-3", "%hd", &trim); /* ok: PK202 */
    sscanf("123456789012", "%lld", &serial); /* ok: PK202 */
    sscanf("200", "%hhu", &level); /* ok: PK202 */
    sscanf("77", "%d", &low_only); /* ok: PK202 */
    printf("%ld %lx %zu %" PRIu32 " %d\n", timeout, mask, len, id, trim);
    printf("%lld %u %lld\n", serial, level, low_only);
    return 0;
}
