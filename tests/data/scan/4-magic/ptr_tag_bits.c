/* A pool allocator's debug build that keeps a 4-bit pool id in the top bits
 * of each address: PTR_BITS was 32 on every board it ran on. */
#include <stdint.h>
#include <stdio.h>

#define PTR_BITS 32
#define TAG_BITS 4

static unsigned int pool_of(const void *p)
{
    return (unsigned int)((uintptr_t)p >> (PTR_BITS - TAG_BITS)); /* want: PK402 */
}

static unsigned int pool_of_fixed(const void *p)
{
    return (unsigned int)((uintptr_t)p >> (sizeof(uintptr_t) * 8 - TAG_BITS)); /* ok: PK402 */
}

int main(void)
{
    int x;

    printf("pool id fits its 4 bits: %d\n", pool_of(&x) < (1u << TAG_BITS));
    printf("pool id fits its 4 bits (fixed): %d\n", pool_of_fixed(&x) < (1u << TAG_BITS));
    return 0;
}
