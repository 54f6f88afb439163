/* Small AArch64 helpers shared by the CRC32 and PMULL kernels. */
#ifndef PK_CRC32C_ARM64_H
#define PK_CRC32C_ARM64_H

#include <arm_acle.h>
#include <arm_neon.h>

#include "crc32c_math.h"

#define PK_ARM64_CRC_TARGET __attribute__((target("+crc")))
#define PK_ARM64_PMULL_TARGET __attribute__((target("+crc+crypto")))
/* EOR3 (three-way xor) is part of the SHA3 extension, an ARMv8.2 option. */
#define PK_ARM64_EOR3_TARGET __attribute__((target("arch=armv8.2-a+crc+crypto+sha3")))

/* One crc32c chain: short inputs and tails. */
PK_ARM64_CRC_TARGET
static inline uint32_t pk_arm64_crc_short(uint32_t s, const uint8_t *p, size_t len)
{
    for (; len >= 8; p += 8, len -= 8)
        s = __crc32cd(s, pk_load_le64(p));
    if (len & 4) {
        s = __crc32cw(s, pk_load_le32(p));
        p += 4;
    }
    if (len & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        s = __crc32ch(s, v);
        p += 2;
    }
    if (len & 1)
        s = __crc32cb(s, *p);
    return s;
}

/* 64-bit carry-less product of a 32-bit state and a 32-bit constant. */
PK_ARM64_PMULL_TARGET
static inline uint64_t pk_arm64_clmul32(uint32_t s, uint64_t k)
{
    return vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64(s, k)), 0);
}

/* state * x^(8n) for n a multiple of 64: per set bit of n/64 one PMULL by
 * pk_crc32c_shift64_k[j] and one crc32cx, which appends the missing x^33. */
PK_ARM64_PMULL_TARGET
static inline uint32_t pk_arm64_shift64(uint32_t state, size_t n)
{
    n >>= 6;
    for (int j = 0; n; j++, n >>= 1)
        if (n & 1)
            state = __crc32cd(0, pk_arm64_clmul32(state, pk_crc32c_shift64_k[j]));
    return state;
}

/* Large buffers are split into far-apart regions, each read as its own
 * sequential stream: on x86 this took a single core from ~82% to the full
 * memory bandwidth (see crc32c_vpclmul.c); the same shape is used here. */
#define PK_ARM64_REGION_MIN (256 * 1024)
#define PK_ARM64_REGION_PREFETCH 512

#endif
