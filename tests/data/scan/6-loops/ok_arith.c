/* Products computed in a type wide enough before they are stored, products
 * stored in int, and an overflow that is the same on every target because its
 * destination was 64 bits on ILP32 too. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    int w = 640, h = 480, a = 100000, b = 50000;
    size_t sz = (size_t)w * h * 4; /* ok: PK602 */
    int area = w * h; /* ok: PK602 */
    long long big = (long long)a * b; /* ok: PK602 */
    int64_t wrapped = a * b; /* ok: PK602 */
    size_t ints = a * sizeof(int); /* ok: PK602 */

    printf("frame %zu bytes, area %d\n", sz, area);
    printf("product %lld, in int %" PRId64 ", %zu bytes of ints\n", big, wrapped, ints);
    return 0;
}
