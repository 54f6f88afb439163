/* The CRC32C implementations the dispatcher (crc32c.c) chooses from: per
 * implementation the function (public semantics, see portkit/crc32c.h),
 * whether the running CPU can execute it, and the constants it builds once
 * (its init, run by the dispatcher after pk_crc32c_math_init). The raw-state
 * *_update kernels take and return the CRC state before the final xor; other
 * implementations build on them. */
#ifndef PK_CRC32C_IMPLS_H
#define PK_CRC32C_IMPLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint32_t pk_crc32c_portable(uint32_t crc, const void *buf, size_t len);
uint32_t pk_crc32c_portable_update(uint32_t state, const uint8_t *p, size_t len);
void pk_crc32c_portable_init(void);

/* x86-64 and i686: the crc32 instruction (SSE4.2) with PCLMULQDQ joins, and
 * the AVX2 VPCLMULQDQ folding. */
#if defined(__x86_64__) || defined(__i386__)
#define PK_CRC32C_X86 1
uint32_t pk_crc32c_sse42(uint32_t crc, const void *buf, size_t len);
bool pk_crc32c_sse42_supported(void);
uint32_t pk_crc32c_sse42_update(uint32_t state, const uint8_t *p, size_t len);
uint32_t pk_crc32c_avx2_vpclmul(uint32_t crc, const void *buf, size_t len);
bool pk_crc32c_avx2_vpclmul_supported(void);
void pk_crc32c_vpclmul_init(void);
#endif

/* x86-64 only: the folding fused with crc32q streams, and AVX-512. */
#if defined(__x86_64__)
#define PK_CRC32C_X86_64 1
uint32_t pk_crc32c_avx2_fused(uint32_t crc, const void *buf, size_t len);
uint32_t pk_crc32c_avx512_vpclmul(uint32_t crc, const void *buf, size_t len);
bool pk_crc32c_avx512_vpclmul_supported(void);
void pk_crc32c_avx512_init(void);
#endif

#if defined(__aarch64__)
#define PK_CRC32C_ARM64 1
uint32_t pk_crc32c_arm64_crc(uint32_t crc, const void *buf, size_t len);
bool pk_crc32c_arm64_crc_supported(void);
uint32_t pk_crc32c_arm64_crc_pmull(uint32_t crc, const void *buf, size_t len);
uint32_t pk_crc32c_arm64_crc_update(uint32_t state, const uint8_t *p, size_t len);
bool pk_crc32c_arm64_pmull_supported(void);
uint32_t pk_crc32c_arm64_pmull(uint32_t crc, const void *buf, size_t len);
uint32_t pk_crc32c_arm64_pmull_eor3(uint32_t crc, const void *buf, size_t len);
bool pk_crc32c_arm64_pmull_eor3_supported(void);
void pk_crc32c_arm64_pmull_init(void);
#endif

#endif
