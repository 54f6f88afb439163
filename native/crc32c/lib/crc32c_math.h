/* What every CRC32C kernel builds on: the polynomial arithmetic that yields
 * every constant, the constant tables made from it, and little-endian loads.
 * Knows nothing of the kernels: they read from here, never the other way.
 *
 * Conventions ("reflected", as the hardware instructions use them): a 32-bit
 * value v stands for the polynomial  sum v_i * x^(31-i)  (bit 0 is x^31), and
 * the CRC state after message M is  M(x) * x^32 mod P(x). */
#ifndef PK_CRC32C_MATH_H
#define PK_CRC32C_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PK_CRC32C_POLY 0x82F63B78u /* Castagnoli, bit-reversed 0x1EDC6F41 */
#define PK_CRC32C_ONE 0x80000000u  /* the polynomial 1 (x^0) */

#if defined(__GNUC__)
#define PK_LIKELY(x) __builtin_expect(!!(x), 1)
#define PK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PK_LIKELY(x) (x)
#define PK_UNLIKELY(x) (x)
#endif

/* a * b mod P. */
uint32_t pk_crc32c_gf_mul(uint32_t a, uint32_t b);
/* x^n mod P, for any n (square-and-multiply over a table of x^(2^k)). */
uint32_t pk_crc32c_xpow(uint64_t n);
/* state * x^(8 * nbytes) mod P: the state moved past nbytes zero bytes. */
uint32_t pk_crc32c_shift(uint32_t state, size_t nbytes);

/* Builds the powers of x behind the functions above and the constant tables
 * below; the dispatcher runs it once, before any implementation's own init. */
void pk_crc32c_math_init(void);

/* Stream-combining constants for the 3-stream crc32-instruction kernels:
 * three streams of L bytes each end in one state as
 *   a * x^(8*2L) + b * x^(8*L) + c,
 * and a carry-less multiply by k = x^(8L-33) followed by the crc32 instruction
 * on the 64-bit product computes s * x^(8L) (the product carries one extra x,
 * the instruction appends x^32). So k[L] = x^(8L-33) mod P, kept for
 * L = 8, 16, ..., PK_CRC32C_STREAM_MAX and twice that for the "a" stream. */
#define PK_CRC32C_STREAM_STEP 8
#define PK_CRC32C_STREAM_MAX 512
#define PK_CRC32C_STREAM_SLOTS (2 * PK_CRC32C_STREAM_MAX / PK_CRC32C_STREAM_STEP + 1)
extern uint64_t pk_crc32c_stream_k[PK_CRC32C_STREAM_SLOTS]; /* [L / 8] */

/* Multipliers for moving a state forward by a multiple of 64 bytes with the
 * same multiply-then-crc32 step: [j] = x^(8*64*2^j - 33) mod P, one per bit
 * of the length in 64-byte units (lengths below 2^54 bytes). */
#define PK_CRC32C_SHIFT64_BITS 48
extern uint64_t pk_crc32c_shift64_k[PK_CRC32C_SHIFT64_BITS];

static inline uint64_t pk_crc32c_stream_const(size_t stream_len)
{
    return pk_crc32c_stream_k[stream_len / PK_CRC32C_STREAM_STEP];
}

/* Constants for folding 128-bit lanes forward by d bytes with a carry-less
 * multiply: a lane is H (low 64 bits, the earlier bytes) and L (high 64 bits);
 * its value at d bytes later is H * x^(8d+64) + L * x^(8d). A 64x64 carry-less
 * product of a half with a 32-bit constant k carries x * x^32 extra (the
 * constant sits in the low bits of a 64-bit word, i.e. times x^32), so the
 * constants are x^(8d+31) for H and x^(8d-33) for L. The 128-bit product then
 * lines up with the data lane d bytes later, and is xor-ed into it. */
typedef struct {
    uint64_t lo; /* multiplies the low 64 bits: x^(8d+31) mod P */
    uint64_t hi; /* multiplies the high 64 bits: x^(8d-33) mod P */
} pk_crc32c_fold_t;

static inline pk_crc32c_fold_t pk_crc32c_fold_const(size_t d)
{
    pk_crc32c_fold_t k = { pk_crc32c_xpow(8 * (uint64_t)d + 31),
                           pk_crc32c_xpow(8 * (uint64_t)d - 33) };
    return k;
}

/* Little-endian loads that any compiler turns into one unaligned load. */
static inline uint64_t pk_load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t pk_load_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

#endif
