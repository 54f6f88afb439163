/* Small x86 helpers shared by the SSE4.2 and VPCLMULQDQ kernels. The SSE4.2
 * ones also build for 32-bit x86 (i686), where the crc32 instruction takes
 * at most 32 bits: there each 8-byte step is two dependent crc32l. Three
 * streams still keep the unit busy (two steps of 3 cycles latency per
 * stream, three streams: one crc32l per cycle), at 4 bytes a cycle instead
 * of 8. */
#ifndef PK_CRC32C_X86_H
#define PK_CRC32C_X86_H

#include <immintrin.h>

#include "crc32c_math.h"

#define PK_X86_CRC_TARGET __attribute__((target("sse4.2,pclmul")))

#if defined(__x86_64__)
/* A crc32 chain's state as the widest crc32 instruction takes it: 64-bit on
 * x86-64 (no zero-extension inside the loops), 32-bit on i686. */
typedef uint64_t pk_x86_state;

/* The state after the 8 bytes of v (v's lowest byte first). */
PK_X86_CRC_TARGET
static inline pk_x86_state pk_x86_crc_u64(pk_x86_state s, uint64_t v)
{
    return _mm_crc32_u64(s, v);
}

/* The state after the 8 bytes at p. */
PK_X86_CRC_TARGET
static inline pk_x86_state pk_x86_crc8(pk_x86_state s, const uint8_t *p)
{
    return _mm_crc32_u64(s, pk_load_le64(p));
}

/* 64-bit carry-less product of a 32-bit state and a 32-bit constant. */
PK_X86_CRC_TARGET
static inline uint64_t pk_x86_clmul32(uint64_t s, uint64_t k)
{
    __m128i r = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)s),
                                     _mm_cvtsi64_si128((long long)k), 0x00);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

/* The state after the 16 bytes of x (its low bytes first). */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_m128(pk_x86_state s, __m128i x)
{
    s = _mm_crc32_u64(s, (uint64_t)_mm_cvtsi128_si64(x));
    s = _mm_crc32_u64(s, (uint64_t)_mm_extract_epi64(x, 1));
    return (uint32_t)s;
}
#else
typedef uint32_t pk_x86_state;

PK_X86_CRC_TARGET
static inline pk_x86_state pk_x86_crc_u64(pk_x86_state s, uint64_t v)
{
    return _mm_crc32_u32(_mm_crc32_u32(s, (uint32_t)v), (uint32_t)(v >> 32));
}

PK_X86_CRC_TARGET
static inline pk_x86_state pk_x86_crc8(pk_x86_state s, const uint8_t *p)
{
    return _mm_crc32_u32(_mm_crc32_u32(s, pk_load_le32(p)), pk_load_le32(p + 4));
}

/* PCLMULQDQ works on SSE registers in 32-bit mode too; s and k have 32 bits. */
PK_X86_CRC_TARGET
static inline uint64_t pk_x86_clmul32(uint64_t s, uint64_t k)
{
    __m128i r = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)(uint32_t)s),
                                     _mm_cvtsi32_si128((int)(uint32_t)k), 0x00);
    uint64_t v;
    _mm_storel_epi64((__m128i *)(void *)&v, r);
    return v;
}

PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_m128(pk_x86_state s, __m128i x)
{
    s = _mm_crc32_u32(s, (uint32_t)_mm_cvtsi128_si32(x));
    s = _mm_crc32_u32(s, (uint32_t)_mm_extract_epi32(x, 1));
    s = _mm_crc32_u32(s, (uint32_t)_mm_extract_epi32(x, 2));
    return _mm_crc32_u32(s, (uint32_t)_mm_extract_epi32(x, 3));
}
#endif

/* state * x^(8n) for n a multiple of 64: per set bit of n/64, one carry-less
 * multiply by pk_crc32c_shift64_k[j] and one crc32, which appends the
 * missing x^33. ~8 cycles per bit. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_shift64(uint32_t state, size_t n)
{
    n >>= 6;
    for (int j = 0; n; j++, n >>= 1)
        if (n & 1)
            state = (uint32_t)pk_x86_crc_u64(0, pk_x86_clmul32(state, pk_crc32c_shift64_k[j]));
    return state;
}

/* Up to this many bytes every x86 kernel runs one crc32 chain inline: below
 * three 32-byte streams, splitting costs more than it saves. */
#define PK_X86_SHORT_MAX 95

/* One crc32 chain: for short inputs and tails. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_short(uint32_t state, const uint8_t *p, size_t len)
{
    pk_x86_state s = state;
    for (; len >= 8; p += 8, len -= 8)
        s = pk_x86_crc8(s, p);
    uint32_t s32 = (uint32_t)s;
    if (len & 4) {
        s32 = _mm_crc32_u32(s32, pk_load_le32(p));
        p += 4;
    }
    if (len & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        s32 = _mm_crc32_u16(s32, v);
        p += 2;
    }
    if (len & 1)
        s32 = _mm_crc32_u8(s32, *p);
    return s32;
}

/* Three crc32 chains over three adjacent stretches of `stream` bytes (a
 * multiple of 8, at most PK_CRC32C_STREAM_MAX), joined by PCLMULQDQ: the
 * first two states are multiplied by x^(8*2*stream-33) and x^(8*stream-33)
 * (pk_crc32c_stream_k) and folded into the third stretch's last word. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_3way(uint32_t state, const uint8_t *p, size_t stream)
{
    const uint8_t *pb = p + stream, *pc = p + 2 * stream;
    pk_x86_state a = state, b = 0, c = 0;
    for (size_t i = 0; i < stream - 8; i += 8) {
        a = pk_x86_crc8(a, p + i);
        b = pk_x86_crc8(b, pb + i);
        c = pk_x86_crc8(c, pc + i);
    }
    a = pk_x86_crc8(a, p + stream - 8);
    b = pk_x86_crc8(b, pb + stream - 8);
    uint64_t last = pk_load_le64(pc + stream - 8) ^
                    pk_x86_clmul32(a, pk_crc32c_stream_const(2 * stream)) ^
                    pk_x86_clmul32(b, pk_crc32c_stream_const(stream));
    return (uint32_t)pk_x86_crc_u64(c, last);
}

/* Lengths up to a few hundred bytes: three chains over the largest multiple
 * of 24 bytes, one chain for the rest. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_medium(uint32_t state, const uint8_t *p, size_t len)
{
    size_t stream = len / 24 * 8;
    if (stream >= 32) {
        state = pk_x86_crc_3way(state, p, stream);
        p += 3 * stream;
        len -= 3 * stream;
    }
    return pk_x86_crc_short(state, p, len);
}

#endif
