/* Small x86-64 helpers shared by the SSE4.2 and VPCLMULQDQ kernels. */
#ifndef PK_CRC32C_X86_H
#define PK_CRC32C_X86_H

#include <immintrin.h>

#include "crc32c_math.h"

#define PK_X86_CRC_TARGET __attribute__((target("sse4.2,pclmul")))

/* 64-bit carry-less product of a 32-bit state and a 32-bit constant. */
PK_X86_CRC_TARGET
static inline uint64_t pk_x86_clmul32(uint64_t s, uint64_t k)
{
    __m128i r = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)s),
                                     _mm_cvtsi64_si128((long long)k), 0x00);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

/* state * x^(8n) for n a multiple of 64: per set bit of n/64, one carry-less
 * multiply by pk_crc32c_shift64_k[j] and one crc32, which appends the
 * missing x^33. ~8 cycles per bit. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_shift64(uint32_t state, size_t n)
{
    n >>= 6;
    for (int j = 0; n; j++, n >>= 1)
        if (n & 1)
            state = (uint32_t)_mm_crc32_u64(0, pk_x86_clmul32(state, pk_crc32c_shift64_k[j]));
    return state;
}

/* Up to this many bytes every x86 kernel runs one crc32 chain inline: below
 * three 32-byte streams, splitting costs more than it saves. */
#define PK_X86_SHORT_MAX 95

/* One crc32 chain: for short inputs and tails. */
PK_X86_CRC_TARGET
static inline uint32_t pk_x86_crc_short(uint32_t state, const uint8_t *p, size_t len)
{
    uint64_t s = state;
    for (; len >= 8; p += 8, len -= 8)
        s = _mm_crc32_u64(s, pk_load_le64(p));
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
    uint64_t a = state, b = 0, c = 0;
    for (size_t i = 0; i < stream - 8; i += 8) {
        a = _mm_crc32_u64(a, pk_load_le64(p + i));
        b = _mm_crc32_u64(b, pk_load_le64(pb + i));
        c = _mm_crc32_u64(c, pk_load_le64(pc + i));
    }
    a = _mm_crc32_u64(a, pk_load_le64(p + stream - 8));
    b = _mm_crc32_u64(b, pk_load_le64(pb + stream - 8));
    uint64_t last = pk_load_le64(pc + stream - 8) ^
                    pk_x86_clmul32(a, pk_crc32c_stream_const(2 * stream)) ^
                    pk_x86_clmul32(b, pk_crc32c_stream_const(stream));
    return (uint32_t)_mm_crc32_u64(c, last);
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
