/* x86-64 VPCLMULQDQ on 256-bit vectors (AVX2), plain and fused with the
 * crc32 instruction.
 *
 * Folding: four 256-bit accumulators (eight 128-bit lanes) cover 128 bytes;
 * each step multiplies every lane by x^(8*128) mod P (two carry-less
 * multiplies per lane, see pk_crc32c_fold_t) and xors in the next 128 bytes.
 * At the end the lanes are folded onto the last one and the crc32
 * instruction reduces those 128 bits to the 32-bit state.
 *
 * Fused: the carry-less multiplier and the crc32 unit are separate, so while
 * the vectors fold one stretch of a block, three crc32 streams run over three
 * more stretches behind it (after the idea of Corsix's fast-crc32 generator):
 *
 *   block = [ vector: CHUNKS x 128 B | stream a: S | stream b: S | stream c: S ]
 *
 * The vector accumulators jump over the three streams into the next block's
 * vector stretch with one fold by 128 + 3S bytes; the streams' joined state
 * (one 32-bit CRC state at the block's end) is xor-ed into the first four
 * bytes of that next stretch -- a state is exactly a prefix xor on the data
 * that follows it. Only the final block reduces the vectors. From 8 KiB on
 * the four stretches are instead four far-apart regions of the whole buffer
 * (regions_update): no per-block joins, and memory serves four streams
 * faster than one.
 *
 * What bounds both loops on Zen 3 (measured with register-only and L1 loops,
 * the VM exposes no PMU): 8 VPCLMULQDQ per 128-byte vector step take 16
 * cycles whatever else runs; up to 12 crc32 ride along for free, and past
 * ~16 crc32 the crc32 unit (one per cycle) is the limit. So the best mix
 * gives the streams 12-18 words per vector step, not 6. */
#include "crc32c_impls.h"
#include "crc32c_math.h"

#if defined(PK_CRC32C_X86)
#include <immintrin.h>

#include "pk_cpu_features.h"
#include "crc32c_x86.h"

#define AVX2_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.2")))

/* Below this the three crc32 streams of pk_x86_crc_medium() take over; from
 * 256 B to 1 KiB both run at ~8 bytes/cycle on Zen 3 (measured). */
#define AVX2_MIN 256
/* Prefetch distance: this class of machine keeps too few misses in flight on
 * its own to reach memory bandwidth. */
#define PREFETCH 1024

/* Fused block: per 128-byte vector step each stream takes QWORDS words.
 * Measured on Zen 3 (2 cycles per VPCLMULQDQ, 1 per crc32): 4 words beat 2
 * by 17% and 3 by 6% at 4-64 KiB; 16 chunks beat 8 by 2-3% and 12 by 10% at
 * 4 KiB (12 won by 4-6% at 8-16 KiB, which the regions now take). */
#define FUSED_CHUNKS 16
#define FUSED_QWORDS 4
#define FUSED_S (FUSED_CHUNKS * FUSED_QWORDS * 8)
#define FUSED_BLOCK (FUSED_CHUNKS * 128 + 3 * FUSED_S)
_Static_assert(FUSED_S <= PK_CRC32C_STREAM_MAX, "the streams join through pk_crc32c_stream_k");
/* A block may be shorter, n chunks of CHUNK_BYTES: the last one of a buffer
 * takes what is left, down to FUSED_MIN_CHUNKS, instead of leaving up to a
 * whole block to the plain folding (which cost 20% at 2.8-3.5 KiB). Below 6
 * chunks (1344 B) the joins cost more than the streams gain (measured). */
#define CHUNK_BYTES (128 + 3 * FUSED_QWORDS * 8)
#define FUSED_MIN_CHUNKS 6
/* Four streams advancing at different speeds defeat the hardware
 * prefetcher once the data comes from DRAM (fused fell to half the memory
 * bandwidth): each step prefetches its share of the block after next. */
#define PF_LINES ((FUSED_BLOCK / 64 + FUSED_CHUNKS - 2) / (FUSED_CHUNKS - 1))

/* Larger buffers: the same fused mix over four far-apart regions, so that
 * the data arrives as four long sequential streams (one vector, three crc32),
 * which the hardware prefetchers serve at full memory bandwidth; a single
 * stream, even with software prefetch, reached only ~82% of it (Zen 3, DRAM).
 * Per step: 128 bytes of the vector region, QWORDS words of each crc32
 * region. 6 words beat 4 and 5 by 8-10% and 7-8 by 2-5% (at 7 and more the
 * crc32 unit is the bottleneck). Without per-block joins this beats the
 * blocks by 4-13% from 8 KiB on; below, its 1 KiB step granularity leaves
 * too long a tail (measured). */
#define REGION_QWORDS 6
#define REGION_STEP (128 + 3 * 8 * REGION_QWORDS)
#define REGION_MIN (8 * 1024)
_Static_assert(4 * 8 * REGION_QWORDS % 64 == 0, "4 steps: a multiple of 64 per crc32 region");
/* Prefetch distance in the vector region (the crc32 regions get an eighth
 * of it): 4 KiB measured best of 1-8 KiB; a distance in proportion to their
 * speed (3/8) was no better. Even with the data in L2 it gains 4%. */
#define REGION_PREFETCH 4096

static struct {
    pk_crc32c_fold_t d16, d32, d64, d96, d128;
    /* For a block of n chunks: the vectors' jump over its three streams to
     * the next block, and the multiplier moving the vector stretch's state
     * past the streams (a stream_k-style constant, for 3 streams). */
    pk_crc32c_fold_t skip[FUSED_CHUNKS + 1];
    uint64_t past_streams[FUSED_CHUNKS + 1];
} k;

void pk_crc32c_vpclmul_init(void)
{
    k.d16 = pk_crc32c_fold_const(16);
    k.d32 = pk_crc32c_fold_const(32);
    k.d64 = pk_crc32c_fold_const(64);
    k.d96 = pk_crc32c_fold_const(96);
    k.d128 = pk_crc32c_fold_const(128);
    for (size_t n = 1; n <= FUSED_CHUNKS; n++) {
        size_t streams = 3 * n * FUSED_QWORDS * 8;
        k.skip[n] = pk_crc32c_fold_const(128 + streams);
        k.past_streams[n] = pk_crc32c_xpow(8 * (uint64_t)streams - 33);
    }
}

AVX2_TARGET static inline __m256i k256(pk_crc32c_fold_t f)
{
    return _mm256_set_epi64x((long long)f.hi, (long long)f.lo, (long long)f.hi,
                             (long long)f.lo);
}

AVX2_TARGET static inline __m256i load256(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* Every 128-bit lane of x, moved forward by the distance k was made for. */
AVX2_TARGET static inline __m256i fold256(__m256i x, __m256i kk)
{
    return _mm256_xor_si256(_mm256_clmulepi64_epi128(x, kk, 0x00),
                            _mm256_clmulepi64_epi128(x, kk, 0x11));
}

PK_X86_CRC_TARGET static inline __m128i fold128(__m128i x, pk_crc32c_fold_t f)
{
    __m128i kk = _mm_set_epi64x((long long)f.hi, (long long)f.lo);
    return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00), _mm_clmulepi64_si128(x, kk, 0x11));
}

/* The state after the accumulators (which end at p) and then p[0..len). */
AVX2_TARGET static uint32_t finish(__m256i x0, __m256i x1, __m256i x2, __m256i x3,
                                   const uint8_t *p, size_t len)
{
    __m256i y = _mm256_xor_si256(_mm256_xor_si256(x3, fold256(x0, k256(k.d96))),
                                 _mm256_xor_si256(fold256(x1, k256(k.d64)),
                                                  fold256(x2, k256(k.d32))));
    for (__m256i k32 = k256(k.d32); len >= 32; p += 32, len -= 32)
        y = _mm256_xor_si256(fold256(y, k32), load256(p));
    __m128i x = _mm_xor_si128(_mm256_extracti128_si256(y, 1),
                              fold128(_mm256_castsi256_si128(y), k.d16));
    if (len >= 16) {
        x = _mm_xor_si128(fold128(x, k.d16), _mm_loadu_si128((const __m128i *)(const void *)p));
        p += 16;
        len -= 16;
    }
    /* 128 bits of pending message from state 0: two crc32 steps. */
    return pk_x86_crc_short(pk_x86_crc_m128(0, x), p, len);
}

AVX2_TARGET __attribute__((noinline))
static uint32_t avx2_update(uint32_t state, const uint8_t *p, size_t len)
{
    if (len < AVX2_MIN)
        return pk_x86_crc_medium(state, p, len);
    __m256i x0 = _mm256_xor_si256(load256(p), _mm256_set_epi64x(0, 0, 0, state));
    __m256i x1 = load256(p + 32), x2 = load256(p + 64), x3 = load256(p + 96);
    const __m256i k128 = k256(k.d128);
    for (p += 128, len -= 128; len >= 128; p += 128, len -= 128) {
        _mm_prefetch((const char *)p + PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)p + PREFETCH + 64, _MM_HINT_T0);
        x0 = _mm256_xor_si256(fold256(x0, k128), load256(p));
        x1 = _mm256_xor_si256(fold256(x1, k128), load256(p + 32));
        x2 = _mm256_xor_si256(fold256(x2, k128), load256(p + 64));
        x3 = _mm256_xor_si256(fold256(x3, k128), load256(p + 96));
    }
    return finish(x0, x1, x2, x3, p, len);
}

/* The fused kernel is x86-64's only: its mix of vector folds and crc32 words
 * is tuned for crc32q, and on i686, where each word is two crc32l, it ran
 * 10% behind the plain folding from 4 KiB to 1 MiB (measured on Zen 3;
 * halving the words per step only drew level). */
#if defined(PK_CRC32C_X86_64)
/* len >= FUSED_MIN_CHUNKS * CHUNK_BYTES (checked by the caller, before this
 * function's frame set-up). */
AVX2_TARGET __attribute__((noinline))
static uint32_t fused_update(uint32_t state, const uint8_t *p, size_t len)
{
    const __m256i k128 = k256(k.d128);
    __m256i x0 = _mm256_xor_si256(load256(p), _mm256_set_epi64x(0, 0, 0, state));
    __m256i x1 = load256(p + 32), x2 = load256(p + 64), x3 = load256(p + 96);
    for (;;) {
        size_t n = len / CHUNK_BYTES < FUSED_CHUNKS ? len / CHUNK_BYTES : FUSED_CHUNKS;
        size_t stream = n * FUSED_QWORDS * 8;
        const uint8_t *v = p + 128, *sa = p + n * 128;
        const uint8_t *sb = sa + stream, *sc = sb + stream;
        pk_x86_state a = 0, b = 0, c = 0;
        /* The vectors hold chunk 0 already; the streams run one step ahead. */
        for (size_t i = 1; i < n; i++, v += 128) {
            for (int l = 0; l < PF_LINES; l++)
                _mm_prefetch((const char *)p + 2 * FUSED_BLOCK + 64 * (PF_LINES * i + l),
                             _MM_HINT_T0);
            x0 = _mm256_xor_si256(fold256(x0, k128), load256(v));
            x1 = _mm256_xor_si256(fold256(x1, k128), load256(v + 32));
            x2 = _mm256_xor_si256(fold256(x2, k128), load256(v + 64));
            x3 = _mm256_xor_si256(fold256(x3, k128), load256(v + 96));
            for (int j = 0; j < FUSED_QWORDS; j++, sa += 8, sb += 8, sc += 8) {
                a = pk_x86_crc8(a, sa);
                b = pk_x86_crc8(b, sb);
                c = pk_x86_crc8(c, sc);
            }
        }
        for (int j = 0; j < FUSED_QWORDS - 1; j++, sa += 8, sb += 8, sc += 8) {
            a = pk_x86_crc8(a, sa);
            b = pk_x86_crc8(b, sb);
            c = pk_x86_crc8(c, sc);
        }
        a = pk_x86_crc8(a, sa);
        b = pk_x86_crc8(b, sb);
        uint64_t join = pk_load_le64(sc) ^ pk_x86_clmul32(a, pk_crc32c_stream_const(2 * stream)) ^
                        pk_x86_clmul32(b, pk_crc32c_stream_const(stream));
        p += n * CHUNK_BYTES;
        len -= n * CHUNK_BYTES;
        if (len < FUSED_MIN_CHUNKS * CHUNK_BYTES) {
            /* Last block: the vector stretch's state, moved past the streams. */
            uint64_t vs = finish(x0, x1, x2, x3, NULL, 0);
            join ^= pk_x86_clmul32(vs, k.past_streams[n]);
            return avx2_update((uint32_t)pk_x86_crc_u64(c, join), p, len);
        }
        uint32_t streams = (uint32_t)pk_x86_crc_u64(c, join);
        const __m256i kskip = k256(k.skip[n]);
        x0 = _mm256_xor_si256(_mm256_xor_si256(fold256(x0, kskip), load256(p)),
                              _mm256_set_epi64x(0, 0, 0, streams));
        x1 = _mm256_xor_si256(fold256(x1, kskip), load256(p + 32));
        x2 = _mm256_xor_si256(fold256(x2, kskip), load256(p + 64));
        x3 = _mm256_xor_si256(fold256(x3, kskip), load256(p + 96));
    }
}

AVX2_TARGET __attribute__((noinline))
static uint32_t regions_update(uint32_t state, const uint8_t *p, size_t len)
{
    /* A multiple of 4 steps keeps every region length a multiple of 64. */
    size_t steps = len / REGION_STEP & ~(size_t)3;
    size_t vlen = steps * 128, slen = steps * 8 * REGION_QWORDS;
    const uint8_t *v = p, *sa = p + vlen, *sb = sa + slen, *sc = sb + slen;
    const __m256i k128 = k256(k.d128);
    __m256i x0 = _mm256_xor_si256(load256(v), _mm256_set_epi64x(0, 0, 0, state));
    __m256i x1 = load256(v + 32), x2 = load256(v + 64), x3 = load256(v + 96);
    pk_x86_state a = 0, b = 0, c = 0;
    for (size_t i = 1; i < steps; i++) {
        v += 128;
        _mm_prefetch((const char *)v + REGION_PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)v + REGION_PREFETCH + 64, _MM_HINT_T0);
        _mm_prefetch((const char *)sa + REGION_PREFETCH / 8, _MM_HINT_T0);
        _mm_prefetch((const char *)sb + REGION_PREFETCH / 8, _MM_HINT_T0);
        _mm_prefetch((const char *)sc + REGION_PREFETCH / 8, _MM_HINT_T0);
        x0 = _mm256_xor_si256(fold256(x0, k128), load256(v));
        x1 = _mm256_xor_si256(fold256(x1, k128), load256(v + 32));
        x2 = _mm256_xor_si256(fold256(x2, k128), load256(v + 64));
        x3 = _mm256_xor_si256(fold256(x3, k128), load256(v + 96));
        for (int j = 0; j < REGION_QWORDS; j++, sa += 8, sb += 8, sc += 8) {
            a = pk_x86_crc8(a, sa);
            b = pk_x86_crc8(b, sb);
            c = pk_x86_crc8(c, sc);
        }
    }
    for (int j = 0; j < REGION_QWORDS; j++, sa += 8, sb += 8, sc += 8) {
        a = pk_x86_crc8(a, sa);
        b = pk_x86_crc8(b, sb);
        c = pk_x86_crc8(c, sc);
    }
    /* Each region's state moved to the end of the last region. */
    uint32_t s = pk_x86_shift64(finish(x0, x1, x2, x3, NULL, 0), 3 * slen) ^
                 pk_x86_shift64((uint32_t)a, 2 * slen) ^
                 pk_x86_shift64((uint32_t)b, slen) ^ (uint32_t)c;
    return avx2_update(s, sc, len - vlen - 3 * slen);
}

#endif

/* Short inputs stay in the caller's frame: no vector set-up, no calls. */
AVX2_TARGET uint32_t pk_crc32c_avx2_vpclmul(uint32_t crc, const void *buf, size_t len)
{
    if (PK_LIKELY(len <= PK_X86_SHORT_MAX))
        return ~pk_x86_crc_short(~crc, (const uint8_t *)buf, len);
    if (len < AVX2_MIN)
        return ~pk_x86_crc_medium(~crc, (const uint8_t *)buf, len);
    return ~avx2_update(~crc, (const uint8_t *)buf, len);
}

#if defined(PK_CRC32C_X86_64)
AVX2_TARGET uint32_t pk_crc32c_avx2_fused(uint32_t crc, const void *buf, size_t len)
{
    if (PK_LIKELY(len <= PK_X86_SHORT_MAX))
        return ~pk_x86_crc_short(~crc, (const uint8_t *)buf, len);
    if (len < AVX2_MIN)
        return ~pk_x86_crc_medium(~crc, (const uint8_t *)buf, len);
    if (len >= REGION_MIN)
        return ~regions_update(~crc, (const uint8_t *)buf, len);
    if (len >= FUSED_MIN_CHUNKS * CHUNK_BYTES)
        return ~fused_update(~crc, (const uint8_t *)buf, len);
    return ~avx2_update(~crc, (const uint8_t *)buf, len);
}
#endif

bool pk_crc32c_avx2_vpclmul_supported(void)
{
    return pk_crc32c_sse42_supported() && pk_cpu_has("avx2") && pk_cpu_has("vpclmulqdq");
}

#endif
