/* Polynomial arithmetic modulo the CRC32C polynomial P, in the reflected
 * convention of crc32c_math.h. Every constant the fast kernels use
 * (stream-combining and lane-folding multipliers, the combine() shifts) is a
 * power of x mod P computed here once at start-up, never pasted in. */
#include "crc32c_math.h"

/* x^(2^k) mod P for k = 0..66: enough to raise x to any 64-bit exponent and
 * to shift by 8 * SIZE_MAX bits. */
static uint32_t xpow2[67];

uint64_t pk_crc32c_stream_k[PK_CRC32C_STREAM_SLOTS];
uint64_t pk_crc32c_shift64_k[PK_CRC32C_SHIFT64_BITS];

uint32_t pk_crc32c_gf_mul(uint32_t a, uint32_t b)
{
    /* Horner over a's coefficients from x^31 (bit 0) down to x^0 (bit 31):
     * r = r*x (+ b). Multiplying by x is a right shift in reflected form; the
     * coefficient of x^32 that falls out is replaced by P's lower terms. */
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) {
        r = (r >> 1) ^ (PK_CRC32C_POLY & (0u - (r & 1)));
        r ^= b & (0u - ((a >> i) & 1));
    }
    return r;
}

uint32_t pk_crc32c_xpow(uint64_t n)
{
    uint32_t r = PK_CRC32C_ONE;
    for (int k = 0; n; k++, n >>= 1)
        if (n & 1)
            r = pk_crc32c_gf_mul(r, xpow2[k]);
    return r;
}

uint32_t pk_crc32c_shift(uint32_t state, size_t nbytes)
{
    /* x^(8n) = product of x^(2^(k+3)) over the set bits k of n. */
    uint64_t n = nbytes;
    for (int k = 3; n; k++, n >>= 1)
        if (n & 1)
            state = pk_crc32c_gf_mul(state, xpow2[k]);
    return state;
}

void pk_crc32c_math_init(void)
{
    xpow2[0] = PK_CRC32C_ONE >> 1; /* x */
    for (int k = 1; k < 67; k++)
        xpow2[k] = pk_crc32c_gf_mul(xpow2[k - 1], xpow2[k - 1]);
    for (size_t i = 1; i < PK_CRC32C_STREAM_SLOTS; i++)
        pk_crc32c_stream_k[i] = pk_crc32c_xpow(8 * PK_CRC32C_STREAM_STEP * i - 33);
    for (int j = 0; j < PK_CRC32C_SHIFT64_BITS; j++)
        pk_crc32c_shift64_k[j] = pk_crc32c_xpow(((uint64_t)8 * 64 << j) - 33);
}
