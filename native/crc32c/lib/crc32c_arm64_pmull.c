/* AArch64 PMULL folding, with EOR3 where the SHA3 extension has it.
 *
 * Eight 128-bit accumulators cover 128 bytes; each step multiplies every
 * accumulator's halves by x^(8*128+31) and x^(8*128-33) mod P (PMULL and
 * PMULL2, see pk_crc32c_fold_t) and xors in the next 128 bytes -- with EOR3
 * the two products and the data in one instruction. Eight chains keep the
 * multiplier busy on cores with 2-4 PMULL per cycle (Neoverse, Apple); the
 * final 128 bits are reduced with two crc32cx. Below 256 bytes the
 * three-stream crc32 kernel is used; from 256 KiB on, four far-apart regions
 * (see PK_ARM64_REGION_MIN). Not measured on hardware (qemu only checks it). */
#include "crc32c_impls.h"
#include "crc32c_math.h"

#if defined(PK_CRC32C_ARM64)
#include "pk_cpu_features.h"
#include "crc32c_arm64.h"

#define PMULL_MIN 256
#define PREFETCH 1024

static pk_crc32c_fold_t k_lane[8]; /* [i]: distance 16 * i bytes; [0] unused */
static pk_crc32c_fold_t k128;

void pk_crc32c_arm64_pmull_init(void)
{
    for (int i = 1; i < 8; i++)
        k_lane[i] = pk_crc32c_fold_const(16 * (size_t)i);
    k128 = pk_crc32c_fold_const(128);
}

PK_ARM64_PMULL_TARGET static inline poly64x2_t kvec(pk_crc32c_fold_t f)
{
    return vreinterpretq_p64_u64(vcombine_u64(vcreate_u64(f.lo), vcreate_u64(f.hi)));
}

PK_ARM64_PMULL_TARGET static inline uint64x2_t load16(const uint8_t *p)
{
    return vreinterpretq_u64_u8(vld1q_u8(p)); /* byte loads: any alignment */
}

/* The two halves of x moved forward by kk's distance. */
PK_ARM64_PMULL_TARGET static inline uint64x2_t mul_lo(uint64x2_t x, poly64x2_t kk)
{
    return vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(x), 0),
                                            vgetq_lane_p64(kk, 0)));
}

PK_ARM64_PMULL_TARGET static inline uint64x2_t mul_hi(uint64x2_t x, poly64x2_t kk)
{
    return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(x), kk));
}

/* One kernel body, instantiated with and without EOR3. */
#define DEFINE_FOLD_KERNEL(NAME, TARGET, XOR3)                                                  \
    TARGET static uint32_t NAME(uint32_t state, const uint8_t *p, size_t len)                   \
    {                                                                                           \
        if (len < PMULL_MIN)                                                                    \
            return pk_crc32c_arm64_crc_update(state, p, len);                                   \
        uint64x2_t x[8];                                                                        \
        for (int i = 0; i < 8; i++)                                                             \
            x[i] = load16(p + 16 * i);                                                          \
        x[0] = veorq_u64(x[0], vcombine_u64(vcreate_u64(state), vcreate_u64(0)));               \
        const poly64x2_t kk = kvec(k128);                                                       \
        for (p += 128, len -= 128; len >= 128; p += 128, len -= 128) {                          \
            __builtin_prefetch(p + PREFETCH);                                                   \
            __builtin_prefetch(p + PREFETCH + 64);                                              \
            for (int i = 0; i < 8; i++)                                                         \
                x[i] = XOR3(mul_lo(x[i], kk), mul_hi(x[i], kk), load16(p + 16 * i));            \
        }                                                                                       \
        uint64x2_t y = x[7];                                                                    \
        for (int i = 0; i < 7; i++) {                                                           \
            poly64x2_t kl = kvec(k_lane[7 - i]);                                                \
            y = XOR3(mul_lo(x[i], kl), mul_hi(x[i], kl), y);                                    \
        }                                                                                       \
        for (const poly64x2_t k16 = kvec(k_lane[1]); len >= 16; p += 16, len -= 16)             \
            y = XOR3(mul_lo(y, k16), mul_hi(y, k16), load16(p));                                \
        uint32_t s = __crc32cd(0, vgetq_lane_u64(y, 0));                                        \
        s = __crc32cd(s, vgetq_lane_u64(y, 1));                                                 \
        return pk_arm64_crc_short(s, p, len);                                                   \
    }

/* Large buffers: four far-apart regions, two accumulators each (32 bytes a
 * step), joined by moving each region's state to the end of the last. */
#define DEFINE_FOLD_REGIONS(NAME, TARGET, XOR3, BLOCKS)                                         \
    TARGET __attribute__((noinline)) static uint32_t NAME(uint32_t state, const uint8_t *p,     \
                                                          size_t len)                           \
    {                                                                                           \
        size_t q = len / 4 & ~(size_t)63;                                                       \
        uint64x2_t x[8];                                                                        \
        for (int r = 0; r < 4; r++)                                                             \
            for (int h = 0; h < 2; h++)                                                         \
                x[2 * r + h] = load16(p + r * q + 16 * h);                                      \
        x[0] = veorq_u64(x[0], vcombine_u64(vcreate_u64(state), vcreate_u64(0)));               \
        const poly64x2_t k32 = kvec(k_lane[2]), k16 = kvec(k_lane[1]);                          \
        for (size_t i = 32; i < q; i += 32) {                                                   \
            for (int r = 0; r < 4; r++) {                                                       \
                const uint8_t *src = p + r * q + i;                                             \
                __builtin_prefetch(src + PK_ARM64_REGION_PREFETCH);                             \
                for (int h = 0; h < 2; h++)                                                     \
                    x[2 * r + h] = XOR3(mul_lo(x[2 * r + h], k32),                              \
                                        mul_hi(x[2 * r + h], k32), load16(src + 16 * h));       \
            }                                                                                   \
        }                                                                                       \
        uint32_t s = 0;                                                                         \
        for (int r = 0; r < 4; r++) {                                                           \
            uint64x2_t y = XOR3(mul_lo(x[2 * r], k16), mul_hi(x[2 * r], k16), x[2 * r + 1]);    \
            uint32_t rs = __crc32cd(__crc32cd(0, vgetq_lane_u64(y, 0)), vgetq_lane_u64(y, 1));  \
            s ^= pk_arm64_shift64(rs, (size_t)(3 - r) * q);                                     \
        }                                                                                       \
        return BLOCKS(s, p + 4 * q, len - 4 * q);                                               \
    }

#define XOR3_EOR(a, b, c) veorq_u64(veorq_u64(a, b), c)
#define XOR3_EOR3(a, b, c) veor3q_u64(a, b, c)

DEFINE_FOLD_KERNEL(fold_update, PK_ARM64_PMULL_TARGET, XOR3_EOR)
DEFINE_FOLD_KERNEL(fold_eor3_update, PK_ARM64_EOR3_TARGET, XOR3_EOR3)
DEFINE_FOLD_REGIONS(fold_regions, PK_ARM64_PMULL_TARGET, XOR3_EOR, fold_update)
DEFINE_FOLD_REGIONS(fold_eor3_regions, PK_ARM64_EOR3_TARGET, XOR3_EOR3, fold_eor3_update)

PK_ARM64_PMULL_TARGET
uint32_t pk_crc32c_arm64_pmull(uint32_t crc, const void *buf, size_t len)
{
    if (len >= PK_ARM64_REGION_MIN)
        return ~fold_regions(~crc, (const uint8_t *)buf, len);
    return ~fold_update(~crc, (const uint8_t *)buf, len);
}

PK_ARM64_EOR3_TARGET
uint32_t pk_crc32c_arm64_pmull_eor3(uint32_t crc, const void *buf, size_t len)
{
    if (len >= PK_ARM64_REGION_MIN)
        return ~fold_eor3_regions(~crc, (const uint8_t *)buf, len);
    return ~fold_eor3_update(~crc, (const uint8_t *)buf, len);
}

bool pk_crc32c_arm64_pmull_eor3_supported(void)
{
    return pk_crc32c_arm64_pmull_supported() && pk_cpu_has("sha3");
}

#endif
