/* What the ISA files of CPU feature detection (pk_cpu_features_x86.c,
 * _arm.c, _mips.c, _other.c) and the shared part (pk_cpu_features.c) give
 * each other. Every ISA file compiles on every architecture (an #if keeps
 * what does not apply empty); exactly one defines pk_cpu_isa_*. */
#ifndef PK_CPU_FEATURES_ISA_H
#define PK_CPU_FEATURES_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pk_cpu_features.h"

#define PK_CPU_MAX_FEATURES 128 /* rows of the largest table (x86: 82) */
#define PK_CPU_UNNAMED_MAX 128  /* 64 bits of AT_HWCAP + 64 of AT_HWCAP2 */
#define PK_CPU_UNNAMED_LEN 16   /* "hwcap2_bit63" */

#define PK_CPU_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Everything detection fills in, once per process. */
typedef struct pk_cpu_state {
    pk_cpu_info info;       /* hwcap, hwcap2 and platform read before the ISA's detect */
    bool hwcaps_from_proc;  /* hwcap/hwcap2 are the kernel's own (/proc/self/auxv) */
    pk_cpu_feature features[PK_CPU_MAX_FEATURES];
    char unnamed_names[PK_CPU_UNNAMED_MAX][PK_CPU_UNNAMED_LEN];
    const char *unnamed[PK_CPU_UNNAMED_MAX];
    char vendor[64];
    char model[128];
} pk_cpu_state;

/* ---- defined by the one ISA file of this architecture */

/* info.source: "cpuid" (x86) or "hwcap". */
extern const char pk_cpu_isa_source[];

/* Fills s->features[0..info.feature_count), the unnamed bits, vendor and
 * model, with s->info's auxv values already read. */
void pk_cpu_isa_detect(pk_cpu_state *s);

/* ---- shared by the ISA files (pk_cpu_features.c) */

/* Keeps a string in dst (trimmed of surrounding blanks) and returns it, or
 * NULL when nothing printable is left. */
const char *pk_cpu_keep_string(char *dst, size_t size, const char *src);

/* Fills values[i] with the value of the first "keys[i] : value" line of
 * /proc/cpuinfo; values of keys not found stay empty. Never fails: on a
 * board without /proc the model is simply unknown. */
void pk_cpu_cpuinfo_values(const char *const keys[], char values[][64], size_t n);

/* A hwcap feature: a bit of AT_HWCAP (word 1) or AT_HWCAP2 (word 2). */
typedef struct pk_cpu_hwcap_row {
    const char *name;
    unsigned char word;
    uint64_t mask; /* from the kernel's <asm/hwcap.h> */
} pk_cpu_hwcap_row;

/* The hwcap engine of every architecture but x86: a row is present when its
 * bit is set, and set bits no row names become "hwcap_bitN" / "hwcap2_bitN"
 * (a newer kernel than our headers: reported, never hidden). */
void pk_cpu_hwcap_detect(pk_cpu_state *s, const pk_cpu_hwcap_row *rows, size_t n);

#endif
