/* x86-64 VPCLMULQDQ on 512-bit vectors (AVX-512: Intel Ice Lake and later,
 * AMD Zen 4 and later).
 *
 * The same folding as crc32c_vpclmul.c, four lanes per register: four
 * accumulators cover 256 bytes per step, and vpternlogq joins the two
 * products and the new data in one instruction. These CPUs multiply a full
 * 512-bit register per cycle, several times what the crc32 unit can do, so
 * fusing crc32 streams in buys nothing here.
 *
 * Built with -DPK_CRC32C_EMULATE_AVX512, the same source runs on any x86-64
 * through SIMDe's portable AVX-512 (a test-only build: see
 * native/crc32c/tests/test_crc32c_avx512_emul.c), so its logic is checked on CPUs
 * without AVX-512 too. */
#include "crc32c_impls.h"
#include "crc32c_math.h"

#if defined(PK_CRC32C_X86_64)
#include "pk_cpu_features.h"
#include "crc32c_x86.h"

#if defined(PK_CRC32C_EMULATE_AVX512)
#include <simde/x86/avx512.h>
#include <simde/x86/clmul.h>
#define V(name) simde_##name
typedef simde__m512i v512;
typedef simde__m256i v256;
typedef simde__m128i v128;
#define AVX512_TARGET PK_X86_CRC_TARGET
#define pk_crc32c_avx512_vpclmul pk_crc32c_avx512_emulated
#define pk_crc32c_avx512_init pk_crc32c_avx512_emulated_init
#else
#include <immintrin.h>
#define V(name) _##name
typedef __m512i v512;
typedef __m256i v256;
typedef __m128i v128;
#define AVX512_TARGET \
    __attribute__((target("avx512f,avx512vl,avx2,vpclmulqdq,pclmul,sse4.2")))
#endif

#define XOR3 0x96 /* vpternlogq truth table of a ^ b ^ c */
#define AVX512_MIN 512
#define PREFETCH 2048
#define REGION_MIN (256 * 1024)
#define REGION_PREFETCH 1024

static struct {
    pk_crc32c_fold_t d16, d32, d48, d64, d128, d192, d256;
} k;

void pk_crc32c_avx512_init(void)
{
    k.d16 = pk_crc32c_fold_const(16);
    k.d32 = pk_crc32c_fold_const(32);
    k.d48 = pk_crc32c_fold_const(48);
    k.d64 = pk_crc32c_fold_const(64);
    k.d128 = pk_crc32c_fold_const(128);
    k.d192 = pk_crc32c_fold_const(192);
    k.d256 = pk_crc32c_fold_const(256);
}

AVX512_TARGET static inline v512 k512(pk_crc32c_fold_t f)
{
    long long lo = (long long)f.lo, hi = (long long)f.hi;
    return V(mm512_set_epi64)(hi, lo, hi, lo, hi, lo, hi, lo);
}

AVX512_TARGET static inline v512 load512(const uint8_t *p)
{
    return V(mm512_loadu_si512)((const void *)p);
}

/* x's four 128-bit lanes moved forward by kk's distance, xor-ed with d. */
AVX512_TARGET static inline v512 fold512(v512 x, v512 kk, v512 d)
{
    return V(mm512_ternarylogic_epi64)(V(mm512_clmulepi64_epi128)(x, kk, 0x00),
                                       V(mm512_clmulepi64_epi128)(x, kk, 0x11), d, XOR3);
}

AVX512_TARGET static inline v128 fold128(v128 x, pk_crc32c_fold_t f, v128 d)
{
    v128 kk = V(mm_set_epi64x)((long long)f.hi, (long long)f.lo);
    return V(mm_xor_si128)(V(mm_xor_si128)(V(mm_clmulepi64_si128)(x, kk, 0x00),
                                           V(mm_clmulepi64_si128)(x, kk, 0x11)),
                           d);
}

/* The four lanes of x folded onto the last one: one multiply with a per-lane
 * distance (lane 3's constant is zero, so its product vanishes), the four
 * products xor-ed together, and lane 3 itself added. */
AVX512_TARGET static inline v128 lanes_to_128(v512 x)
{
    v512 lanes = V(mm512_set_epi64)(0, 0, (long long)k.d16.hi, (long long)k.d16.lo,
                                    (long long)k.d32.hi, (long long)k.d32.lo,
                                    (long long)k.d48.hi, (long long)k.d48.lo);
    v512 t = fold512(x, lanes, V(mm512_setzero_si512)());
    v256 h = V(mm256_xor_si256)(V(mm512_castsi512_si256)(t), V(mm512_extracti64x4_epi64)(t, 1));
    v128 r = V(mm_xor_si128)(V(mm256_castsi256_si128)(h), V(mm256_extracti128_si256)(h, 1));
    return V(mm_xor_si128)(r, V(mm512_extracti32x4_epi32)(x, 3));
}

/* The state after 128 bits of pending message, from state 0. */
AVX512_TARGET static inline uint32_t reduce128(v128 x)
{
    uint64_t s = _mm_crc32_u64(0, (uint64_t)V(mm_cvtsi128_si64)(x));
    return (uint32_t)_mm_crc32_u64(s, (uint64_t)V(mm_extract_epi64)(x, 1));
}

AVX512_TARGET __attribute__((noinline))
static uint32_t avx512_update(uint32_t state, const uint8_t *p, size_t len)
{
    if (len < AVX512_MIN)
        return pk_crc32c_sse42_update(state, p, len);
    v512 x0 = V(mm512_xor_si512)(load512(p), V(mm512_set_epi64)(0, 0, 0, 0, 0, 0, 0, state));
    v512 x1 = load512(p + 64), x2 = load512(p + 128), x3 = load512(p + 192);
    const v512 k256 = k512(k.d256);
    for (p += 256, len -= 256; len >= 256; p += 256, len -= 256) {
        for (int l = 0; l < 4; l++)
            __builtin_prefetch(p + PREFETCH + 64 * l);
        x0 = fold512(x0, k256, load512(p));
        x1 = fold512(x1, k256, load512(p + 64));
        x2 = fold512(x2, k256, load512(p + 128));
        x3 = fold512(x3, k256, load512(p + 192));
    }
    /* Four registers onto the last, then 64 bytes at a time. */
    x3 = fold512(x0, k512(k.d192), x3);
    x3 = fold512(x1, k512(k.d128), x3);
    x3 = fold512(x2, k512(k.d64), x3);
    for (const v512 k64 = k512(k.d64); len >= 64; p += 64, len -= 64)
        x3 = fold512(x3, k64, load512(p));
    v128 x = lanes_to_128(x3);
    for (; len >= 16; p += 16, len -= 16)
        x = fold128(x, k.d16, V(mm_loadu_si128)((const void *)p));
    return pk_x86_crc_short(reduce128(x), p, len);
}

/* Large buffers: one accumulator per quarter of the buffer, so that memory
 * sees four sequential streams (the prefetchers serve them better than one,
 * see crc32c_vpclmul.c); the quarters' states are joined by moving each to
 * the end of the last one. Four chains of a 64-byte fold (multiply latency
 * 6-8 cycles) still keep one 512-bit multiply in flight per cycle. */
AVX512_TARGET __attribute__((noinline))
static uint32_t avx512_regions(uint32_t state, const uint8_t *p, size_t len)
{
    size_t q = len / 4 & ~(size_t)63;
    const uint8_t *r1 = p + q, *r2 = p + 2 * q, *r3 = p + 3 * q;
    v512 x0 = V(mm512_xor_si512)(load512(p), V(mm512_set_epi64)(0, 0, 0, 0, 0, 0, 0, state));
    v512 x1 = load512(r1), x2 = load512(r2), x3 = load512(r3);
    const v512 k64 = k512(k.d64);
    for (size_t i = 64; i < q; i += 64) {
        __builtin_prefetch(p + i + REGION_PREFETCH);
        __builtin_prefetch(r1 + i + REGION_PREFETCH);
        __builtin_prefetch(r2 + i + REGION_PREFETCH);
        __builtin_prefetch(r3 + i + REGION_PREFETCH);
        x0 = fold512(x0, k64, load512(p + i));
        x1 = fold512(x1, k64, load512(r1 + i));
        x2 = fold512(x2, k64, load512(r2 + i));
        x3 = fold512(x3, k64, load512(r3 + i));
    }
    uint32_t s = pk_x86_shift64(reduce128(lanes_to_128(x0)), 3 * q) ^
                 pk_x86_shift64(reduce128(lanes_to_128(x1)), 2 * q) ^
                 pk_x86_shift64(reduce128(lanes_to_128(x2)), q) ^ reduce128(lanes_to_128(x3));
    return avx512_update(s, p + 4 * q, len - 4 * q);
}

AVX512_TARGET uint32_t pk_crc32c_avx512_vpclmul(uint32_t crc, const void *buf, size_t len)
{
    if (PK_LIKELY(len <= PK_X86_SHORT_MAX))
        return ~pk_x86_crc_short(~crc, (const uint8_t *)buf, len);
    if (len >= REGION_MIN)
        return ~avx512_regions(~crc, (const uint8_t *)buf, len);
    return ~avx512_update(~crc, (const uint8_t *)buf, len);
}

#if !defined(PK_CRC32C_EMULATE_AVX512)
bool pk_crc32c_avx512_vpclmul_supported(void)
{
    return pk_crc32c_sse42_supported() && pk_cpu_has("avx2") && pk_cpu_has("avx512f") &&
           pk_cpu_has("avx512vl") && pk_cpu_has("vpclmulqdq");
}
#endif

#endif
