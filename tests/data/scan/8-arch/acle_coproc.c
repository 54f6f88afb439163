/* The thread ID register and the FP status read in ARMv7 code through an
 * ACLE intrinsic and a GCC ARM built-in; and the GCC built-ins that exist on
 * every target, which need no porting. */
#include <stdint.h>

#if defined(__arm__)
#include <arm_acle.h> /* want: PK802 */

uint32_t thread_register(void)
{
    return __arm_mrc(15, 0, 13, 0, 3); /* want: PK802 */
}

uint32_t fp_status(void)
{
    return __builtin_arm_get_fpscr(); /* want: PK802 */
}
#endif

int lead_zeros(uint32_t x)
{
    return x ? __builtin_clz(x) : 32; /* ok: PK802 PK402 */
}

uint32_t swap32(uint32_t x)
{
    return __builtin_bswap32(x); /* ok: PK802 */
}
