/* CRC32C (Castagnoli) -- the checksum of iSCSI, SCTP, ext4, Btrfs.
 *
 * Reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF.
 * The fastest implementation the running CPU supports is chosen once, on the
 * first call: SSE4.2 / VPCLMULQDQ on x86-64, CRC32 / PMULL on AArch64, a
 * table-driven one everywhere else. Every implementation gives the same result.
 *
 * Set PORTKIT_CRC32C=<name> in the environment to force one (e.g. "portable";
 * "auto" or empty: the automatic choice);
 * a name that is unknown or not supported by the CPU falls back to the
 * automatic choice, and pk_crc32c_implementation() then says so.
 *
 * Thread-safe; needs only libc and pthreads. */
#ifndef PORTKIT_CRC32C_H
#define PORTKIT_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Extends `crc` (the CRC32C of the data before `buf`; 0 to start) over `len`
 * bytes of `buf`:  pk_crc32c(0, "123456789", 9) == 0xE3069283, and
 * pk_crc32c(pk_crc32c(0, a, n), b, m) is the CRC32C of a followed by b.
 * `buf` may be NULL when `len` is 0; any alignment is fine. */
uint32_t pk_crc32c(uint32_t crc, const void *buf, size_t len);

/* The CRC32C of A followed by B from crc1 = CRC32C(A), crc2 = CRC32C(B) and
 * len2 = length of B, without touching the data. O(log len2). */
uint32_t pk_crc32c_combine(uint32_t crc1, uint32_t crc2, size_t len2);

/* Name of the implementation pk_crc32c() uses, e.g. "avx2_vpclmul" or
 * "portable"; when PORTKIT_CRC32C named one that cannot be used, the text
 * also says which and why, e.g. "sse42 (PORTKIT_CRC32C=foo: unknown)". */
const char *pk_crc32c_implementation(void);

/* One implementation, called like pk_crc32c(). */
typedef uint32_t (*pk_crc32c_fn)(uint32_t crc, const void *buf, size_t len);

/* Names of the implementations this CPU can run, slowest first, NULL-terminated.
 * For tests and benchmarks. */
const char *const *pk_crc32c_implementations(void);

/* The named implementation, or NULL when it is unknown or the CPU lacks it. */
pk_crc32c_fn pk_crc32c_get(const char *name);

#ifdef __cplusplus
}
#endif

#endif
