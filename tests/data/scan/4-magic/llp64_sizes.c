/* scan-args: --from LP64 --to LLP64 */
/* A Linux tool's checkpoint code moved to Win64, where long keeps 4 bytes:
 * the 8 it wrote for a long now reaches past it. Pointers and int64_t stay
 * 8 bytes there. */
#include <stdint.h>
#include <string.h>

void save_counter(unsigned char *buf, const long *counter)
{
    memcpy(buf, counter, 8); /* want: PK401 */
}

void clear_counters(long *counters, int n)
{
    memset(counters, 0, n * 8); /* want: PK401 */
}

void save_stamp(unsigned char *buf, const int64_t *stamp)
{
    memcpy(buf, stamp, 8); /* ok: PK401 */
}

void clear_slots(void **slots, int n)
{
    memset(slots, 0, n * 8); /* ok: PK401 */
}
