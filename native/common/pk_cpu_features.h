/* Optional instruction-set features of the running CPU and kernel: what
 * `portkit-target cpu` reports and the CRC32C dispatcher picks a kernel by.
 *
 * Detected once: cpuid + xgetbv on x86 (a feature counts only when the OS
 * also saves its register state, as the kernel decides), getauxval(AT_HWCAP,
 * AT_HWCAP2) elsewhere. Feature names are the kernel's /proc/cpuinfo names
 * ("sse4_2", "pclmulqdq", "avx512vl", "vpclmulqdq", "crc32", "pmull", "sha3",
 * "sve2", "neon", ...), so what portkit prints matches what engineers already
 * grep for. Each architecture knows only its own names: "neon" is not an x86
 * feature, absent or otherwise. One file per ISA family does the detecting
 * (pk_cpu_features_x86.c, _arm.c, _mips.c, _other.c: pk_cpu_features_isa.h);
 * pk_cpu_features.c is what they share. */
#ifndef PK_CPU_FEATURES_H
#define PK_CPU_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row of this architecture's feature table, with its detected state. */
typedef struct pk_cpu_feature {
    const char *name; /* /proc/cpuinfo spelling */
    bool present;
} pk_cpu_feature;

/* Everything detection found. Strings are NULL when unknown; the struct and
 * everything it points to live for the whole process. */
typedef struct pk_cpu_info {
    const char *arch;     /* PK_ARCH: "x86_64", "aarch64", ... */
    const char *source;   /* "cpuid" (x86) or "hwcap" (getauxval) */
    const char *platform; /* AT_PLATFORM, e.g. "aarch64", "v7l" */
    const char *vendor;   /* "GenuineIntel", "ARM", ... */
    const char *model;    /* brand string, or core name from MIDR / cpuinfo */
    uint64_t hwcap;       /* raw AT_HWCAP (0 when the kernel gives none) */
    uint64_t hwcap2;      /* raw AT_HWCAP2 (0 when the kernel gives none) */
    uint64_t xcr0;        /* x86: register state the OS enabled (XCR0); else 0 */

    const pk_cpu_feature *features; /* every known feature, table order */
    size_t feature_count;

    /* Set hwcap bits this build has no name for, as "hwcap_bitN" /
     * "hwcap2_bitN" (a newer kernel than our headers): reported, never hidden. */
    const char *const *unnamed;
    size_t unnamed_count;
} pk_cpu_info;

/* Runs detection on first use (thread-safe) and returns the result. */
const pk_cpu_info *pk_cpu_info_get(void);

/* True when the running CPU (and kernel) offer the named feature. Unknown
 * names and NULL are false. Thread-safe; detection runs once. */
bool pk_cpu_has(const char *name);

/* True when NAME means something on this architecture: a row of its table
 * (present or absent) or one of the reported unnamed hwcap bits. */
bool pk_cpu_known(const char *name);

#endif
