/* Bit helpers in inline assembly from an ARMv6 media library. The mnemonics
 * assemble for AArch64 too, where "r" picks a 64-bit x register for an
 * unsigned long: rev and clz then work on all 64 bits. */
#include <stdio.h>

static unsigned long swab_long(unsigned long x)
{
    unsigned long r;

    __asm__("rev %0, %1" : "=r"(r) : "r"(x)); /* want: PK801 */
    return r;
}

static int clz_long(unsigned long x)
{
    unsigned long n;

    __asm__("clz %0, %1" : "=r"(n) : "r"(x)); /* want: PK801 */
    return (int)n;
}

int main(void)
{
    printf("swab(0x11223344) = %#lx\n", swab_long(0x11223344UL));
    printf("clz(1) = %d\n", clz_long(1UL));
    printf("portable clz of a 32-bit 1 = %d\n", __builtin_clz(1u)); /* ok: PK802 */
    return 0;
}
