/* x86 SSE4.2: the crc32 instruction, three streams at a time (x86-64 and
 * i686; crc32c_x86.h says what differs in 32-bit mode).
 *
 * crc32 has a latency of 3 cycles and a throughput of one per cycle (Intel
 * since Nehalem, AMD since Zen), so one dependent chain runs at a third of the
 * unit's speed; three independent chains over three adjacent stretches of the
 * buffer fill it. The three partial states are joined with two carry-less
 * multiplies (PCLMULQDQ) folded into the last word of the third stretch (see
 * pk_crc32c_stream_k in crc32c_math.h). */
#include "crc32c_impls.h"
#include "crc32c_math.h"

#if defined(PK_CRC32C_X86)
#include <immintrin.h>

#include "pk_cpu_features.h"
#include "crc32c_x86.h"

/* Stretches of 512 bytes make the join (about 10 cycles of latency, hidden
 * behind the two restarted streams) cost under 2%. */
#define BIG_STREAM 512
/* Without it the three streams reach only half the memory bandwidth on
 * buffers from DRAM (measured on Zen 3): too few misses in flight. */
#define PREFETCH 1536

PK_X86_CRC_TARGET
static pk_x86_state three_streams_prefetching(pk_x86_state a, const uint8_t *p)
{
    const uint8_t *pb = p + BIG_STREAM, *pc = p + 2 * BIG_STREAM;
    pk_x86_state b = 0, c = 0;
    for (size_t i = 0; i < BIG_STREAM; i += 64) {
        _mm_prefetch((const char *)p + i + PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)pb + i + PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)pc + i + PREFETCH, _MM_HINT_T0);
        for (size_t j = i; j < i + 64 - 8 * (i + 64 == BIG_STREAM); j += 8) {
            a = pk_x86_crc8(a, p + j);
            b = pk_x86_crc8(b, pb + j);
            c = pk_x86_crc8(c, pc + j);
        }
    }
    a = pk_x86_crc8(a, p + BIG_STREAM - 8);
    b = pk_x86_crc8(b, pb + BIG_STREAM - 8);
    uint64_t last = pk_load_le64(pc + BIG_STREAM - 8) ^
                    pk_x86_clmul32(a, pk_crc32c_stream_const(2 * BIG_STREAM)) ^
                    pk_x86_clmul32(b, pk_crc32c_stream_const(BIG_STREAM));
    return pk_x86_crc_u64(c, last);
}

/* Large buffers: three chains over three far-apart thirds, which the
 * hardware prefetchers serve as three sequential streams (adjacent 512-byte
 * stretches reached only ~60% of the memory bandwidth), joined by moving the
 * first two states to the end of the third (pk_x86_shift64). */
#define REGION_MIN (256 * 1024)
#define REGION_PREFETCH 512

PK_X86_CRC_TARGET __attribute__((noinline))
static uint32_t three_regions(uint32_t state, const uint8_t *p, size_t len)
{
    size_t third = len / 3 & ~(size_t)63;
    const uint8_t *pb = p + third, *pc = p + 2 * third;
    pk_x86_state a = state, b = 0, c = 0;
    for (size_t i = 0; i < third; i += 64) {
        _mm_prefetch((const char *)p + i + REGION_PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)pb + i + REGION_PREFETCH, _MM_HINT_T0);
        _mm_prefetch((const char *)pc + i + REGION_PREFETCH, _MM_HINT_T0);
        for (size_t j = i; j < i + 64; j += 8) {
            a = pk_x86_crc8(a, p + j);
            b = pk_x86_crc8(b, pb + j);
            c = pk_x86_crc8(c, pc + j);
        }
    }
    uint32_t s = pk_x86_shift64((uint32_t)a, 2 * third) ^ pk_x86_shift64((uint32_t)b, third) ^
                 (uint32_t)c;
    return pk_crc32c_sse42_update(s, p + 3 * third, len - 3 * third);
}

PK_X86_CRC_TARGET
uint32_t pk_crc32c_sse42_update(uint32_t state, const uint8_t *p, size_t len)
{
    if (len >= REGION_MIN)
        return three_regions(state, p, len);
    pk_x86_state s = state;
    for (; len >= 3 * BIG_STREAM; p += 3 * BIG_STREAM, len -= 3 * BIG_STREAM)
        s = three_streams_prefetching(s, p);
    return pk_x86_crc_medium((uint32_t)s, p, len);
}

PK_X86_CRC_TARGET
uint32_t pk_crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
    if (PK_LIKELY(len <= PK_X86_SHORT_MAX))
        return ~pk_x86_crc_short(~crc, (const uint8_t *)buf, len);
    return ~pk_crc32c_sse42_update(~crc, (const uint8_t *)buf, len);
}

bool pk_crc32c_sse42_supported(void)
{
    return pk_cpu_has("sse4_2") && pk_cpu_has("pclmulqdq");
}

#endif
