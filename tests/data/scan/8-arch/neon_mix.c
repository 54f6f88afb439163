/* An audio mixer's NEON inner loop from the ARMv7 build, whose Makefile gave
 * -mfpu=neon (the pragma does the same here). AArch64 has NEON as well, but
 * intrinsics are still code written for one architecture. */
#if defined(__arm__) && !defined(__ARM_NEON)
#pragma GCC target("fpu=neon")
#endif
#include <arm_neon.h> /* want: PK802 */
#include <stdint.h>

void mix_q15(int16_t *out, const int16_t *a, const int16_t *b, int n)
{
    int i;

    for (i = 0; i + 8 <= n; i += 8) {
        int16x8_t va = vld1q_s16(a + i); /* want: PK802 */
        int16x8_t vb = vld1q_s16(b + i); /* want: PK802 */

        vst1q_s16(out + i, vqaddq_s16(va, vb)); /* want: PK802 */
    }
    for (; i < n; i++) {
        int s = a[i] + b[i];

        out[i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
    }
}
