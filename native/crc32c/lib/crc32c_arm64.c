/* AArch64 CRC32 instructions (ARMv8.0 option, ARMv8.1 mandatory).
 *
 * arm64_crc: one crc32cx chain, 8 bytes per instruction. Fine for in-order
 * cores such as the Cortex-A53, where a second chain gains nothing (the
 * FreeBSD field report measured exactly that on a Raspberry Pi 3).
 *
 * arm64_crc_pmull: out-of-order cores (Cortex-A72 and later, Neoverse,
 * Apple) issue one crc32cx per cycle but take 2-3 cycles for each, so three
 * independent chains over three adjacent stretches fill the unit; PMULL
 * joins their states as on x86 (see pk_crc32c_stream_k). From 256 KiB on the
 * three stretches are the buffer's three thirds (see PK_ARM64_REGION_MIN). */
#include "crc32c_impls.h"
#include "crc32c_math.h"

#if defined(PK_CRC32C_ARM64)
#include "pk_cpu_features.h"
#include "crc32c_arm64.h"

#define BIG_STREAM 512
#define MIN_STREAM 32

PK_ARM64_CRC_TARGET
uint32_t pk_crc32c_arm64_crc(uint32_t crc, const void *buf, size_t len)
{
    return ~pk_arm64_crc_short(~crc, (const uint8_t *)buf, len);
}

bool pk_crc32c_arm64_crc_supported(void)
{
    return pk_cpu_has("crc32");
}

PK_ARM64_PMULL_TARGET
static uint32_t three_streams(uint32_t a, const uint8_t *p, size_t len)
{
    const uint8_t *pb = p + len, *pc = p + 2 * len;
    uint32_t b = 0, c = 0;
    for (size_t i = 0; i < len - 8; i += 8) {
        a = __crc32cd(a, pk_load_le64(p + i));
        b = __crc32cd(b, pk_load_le64(pb + i));
        c = __crc32cd(c, pk_load_le64(pc + i));
    }
    a = __crc32cd(a, pk_load_le64(p + len - 8));
    b = __crc32cd(b, pk_load_le64(pb + len - 8));
    uint64_t last = pk_load_le64(pc + len - 8) ^
                    pk_arm64_clmul32(a, pk_crc32c_stream_const(2 * len)) ^
                    pk_arm64_clmul32(b, pk_crc32c_stream_const(len));
    return __crc32cd(c, last);
}

/* Three chains over three far-apart thirds, joined by moving the first two
 * states to the end of the third. */
PK_ARM64_PMULL_TARGET __attribute__((noinline))
static uint32_t three_regions(uint32_t a, const uint8_t *p, size_t len)
{
    size_t third = len / 3 & ~(size_t)63;
    const uint8_t *pb = p + third, *pc = p + 2 * third;
    uint32_t b = 0, c = 0;
    for (size_t i = 0; i < third; i += 64) {
        __builtin_prefetch(p + i + PK_ARM64_REGION_PREFETCH);
        __builtin_prefetch(pb + i + PK_ARM64_REGION_PREFETCH);
        __builtin_prefetch(pc + i + PK_ARM64_REGION_PREFETCH);
        for (size_t j = i; j < i + 64; j += 8) {
            a = __crc32cd(a, pk_load_le64(p + j));
            b = __crc32cd(b, pk_load_le64(pb + j));
            c = __crc32cd(c, pk_load_le64(pc + j));
        }
    }
    uint32_t s = pk_arm64_shift64(a, 2 * third) ^ pk_arm64_shift64(b, third) ^ c;
    return pk_crc32c_arm64_crc_update(s, p + 3 * third, len - 3 * third);
}

PK_ARM64_PMULL_TARGET
uint32_t pk_crc32c_arm64_crc_update(uint32_t s, const uint8_t *p, size_t len)
{
    if (len >= PK_ARM64_REGION_MIN)
        return three_regions(s, p, len);
    if (len >= 3 * MIN_STREAM) {
        for (; len >= 3 * BIG_STREAM; p += 3 * BIG_STREAM, len -= 3 * BIG_STREAM)
            s = three_streams(s, p, BIG_STREAM);
        size_t stream = len / 24 * 8;
        if (stream >= MIN_STREAM) {
            s = three_streams(s, p, stream);
            p += 3 * stream;
            len -= 3 * stream;
        }
    }
    return pk_arm64_crc_short(s, p, len);
}

PK_ARM64_PMULL_TARGET
uint32_t pk_crc32c_arm64_crc_pmull(uint32_t crc, const void *buf, size_t len)
{
    return ~pk_crc32c_arm64_crc_update(~crc, (const uint8_t *)buf, len);
}

bool pk_crc32c_arm64_pmull_supported(void)
{
    return pk_cpu_has("crc32") && pk_cpu_has("pmull");
}

#endif
