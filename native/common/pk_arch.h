/* The agent's own architecture and data model, fixed at compile time.
 * Names match the host's vocabulary (src/portkit/core/arches.py). */
#ifndef PK_ARCH_H
#define PK_ARCH_H

#ifndef PK_VERSION
#define PK_VERSION "0.0.0"
#endif

#if defined(__x86_64__) && defined(__ILP32__)
#define PK_ARCH "x32"
#elif defined(__x86_64__)
#define PK_ARCH "x86_64"
#elif defined(__i386__)
#define PK_ARCH "i686"
#elif defined(__aarch64__)
#define PK_ARCH "aarch64"
#elif defined(__arm__)
#define PK_ARCH "arm"
#elif defined(__mips__) && defined(__mips64) && defined(__MIPSEL__)
#define PK_ARCH "mips64el"
#elif defined(__mips__) && defined(__mips64)
#define PK_ARCH "mips64"
#elif defined(__mips__) && defined(__MIPSEL__)
#define PK_ARCH "mipsel"
#elif defined(__mips__)
#define PK_ARCH "mips"
#elif defined(__riscv) && __riscv_xlen == 64
#define PK_ARCH "riscv64"
#else
#define PK_ARCH "unknown"
#endif

#if defined(_WIN64)
#define PK_DATA_MODEL "LLP64"
#elif defined(__LP64__) || defined(_LP64)
#define PK_DATA_MODEL "LP64"
#else
#define PK_DATA_MODEL "ILP32"
#endif

#endif
