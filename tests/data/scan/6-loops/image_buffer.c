/* A camera frame buffer sized from int width and height, as the 32-bit display
 * driver did it. 40000 x 20000 x 4 bytes is a 3.2 GB panorama: it fits a
 * 32-bit size_t and a 64-bit one, but not the int it is computed in. The
 * offset of a row is a signed long: an overflowed int product would be the
 * same negative number in it on both sides. */
#include <stddef.h>
#include <stdio.h>

#define BPP 4

int main(void)
{
    int w = 40000, h = 20000, row = 3;
    size_t sz = w * h * BPP; /* want: PK602 */
    size_t sz_fixed = (size_t)w * h * BPP; /* ok: PK602 */
    long row_start = row * w * BPP; /* ok: PK602 */

    printf("frame size is right: %d\n", sz == sz_fixed);
    printf("row 3 starts at byte %ld\n", row_start);
    return 0;
}
