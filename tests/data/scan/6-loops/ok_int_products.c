/* Int products that reach a wider type in a 32-bit camera module, none of
 * which changes on LP64: a signed long holds an overflowed int as the same
 * negative number in both models, a length made of two header bytes never
 * reaches 2^31, and a size computed with sizeof goes straight back into the
 * int parameter of the module's allocator. */
#include <stddef.h>
#include <stdio.h>

static char pool[1 << 16];

static void *pool_alloc(int bytes)
{
    return bytes > 0 && bytes <= (int)sizeof pool ? pool : NULL;
}

int main(void)
{
    int w = 50000, h = 50000, items = 300;
    unsigned char hdr[4] = {0x12, 0x34, 0x00, 0x10};
    long area = w * h; /* ok: PK602 */
    size_t len = hdr[0] * 256 + hdr[1]; /* ok: PK602 */
    size_t tail = (hdr[2] << 8) + hdr[3]; /* ok: PK602 */
    void *p = pool_alloc(items * 4 * sizeof(short)); /* ok: PK602 PK301 */

    printf("area %ld (an old overflow, the same everywhere)\n", area);
    printf("length %zu, tail %zu, pool %s\n", len, tail, p ? "yes" : "no");
    return 0;
}
