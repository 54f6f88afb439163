/* Ring-buffer statistics from a 32-bit audio daemon: free space is a size_t,
 * and the macro that records it stores it in an int field. The narrowing is
 * written once, in the macro's body, so it is reported once, at the #define,
 * whatever the number of uses. A macro that only passes a value through
 * (MIN) leaves the narrowing where its result is stored. */
#include <stddef.h>
#include <stdio.h>

struct ring_stats {
    int free_bytes;
    int low_water;
};

#define NOTE_FREE(st, n) ((st)->free_bytes = (n)) /* want: PK301 */
#define NOTE_LOW(st, n) ((st)->low_water = (int)(n)) /* ok: PK301 */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

int main(void)
{
    struct ring_stats st = {0, 0};
    size_t room = 4096;
    size_t unlimited = (size_t)-1 / 2;
    int capped;

    NOTE_FREE(&st, room);
    NOTE_LOW(&st, room);
    NOTE_FREE(&st, unlimited);
    capped = MIN(unlimited, unlimited + room); /* want: PK301 */
    printf("free %d, low water %d, capped %d\n", st.free_bytes, st.low_water, capped);
    printf("unlimited is positive: %d\n", st.free_bytes > 0);
    return 0;
}
