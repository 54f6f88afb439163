/* CPU feature detection: one data table per architecture (a feature is a
 * row: name, where its bit lives, what the OS must also enable), a small
 * engine that evaluates the table once, and the vendor/model strings.
 *
 * x86 (x86_64 and i686): cpuid leaves 1, 7.0, 7.1, 0xD.1 and 0x80000001 in
 * the kernel's cpufeatures.h layout, gated by XCR0 the way the kernel clears
 * features whose register state it does not save.
 * AArch64, ARM, MIPS: AT_HWCAP/AT_HWCAP2 with the bit masks of the kernel's
 * own <asm/hwcap.h> for that architecture (only that one is compiled). */
#include "cpu_features.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "pk_arch.h"

#if defined(__x86_64__) || defined(__i386__)
#define PK_CPU_X86 1
#include <cpuid.h>
#elif defined(__aarch64__) || defined(__arm__) || defined(__mips__)
#include <asm/hwcap.h>
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ x86 */
#ifdef PK_CPU_X86

/* The cpuid (leaf, subleaf) pairs the table reads, each queried once. */
enum x86_leaf { L1, L7_0, L7_1, LD_1, LX1, X86_LEAF_COUNT };
static const struct {
    unsigned leaf, subleaf;
} x86_leaves[X86_LEAF_COUNT] = {
    [L1] = {0x1, 0}, [L7_0] = {0x7, 0}, [L7_1] = {0x7, 1}, [LD_1] = {0xd, 1}, [LX1] = {0x80000001, 0},
};

enum x86_reg { EAX, EBX, ECX, EDX };

/* XCR0 components (Intel SDM vol. 1, 13.1). */
enum {
    XS_X87 = 1u << 0,
    XS_SSE = 1u << 1,
    XS_YMM = 1u << 2,
    XS_OPMASK = 1u << 5,
    XS_ZMM_HI256 = 1u << 6,
    XS_HI16_ZMM = 1u << 7,
    XS_XTILECFG = 1u << 17,
    XS_XTILEDATA = 1u << 18,
};
/* What each family needs the OS to save; the kernel clears the cpuid bit
 * (and, via cpuid-deps.c, everything depending on it) when it does not. */
#define OS_XSAVE XS_X87 /* any XCR0 at all: XSAVE is enabled (CR4.OSXSAVE) */
#define OS_AVX (XS_SSE | XS_YMM)
#define OS_AVX512 (OS_AVX | XS_OPMASK | XS_ZMM_HI256 | XS_HI16_ZMM)
#define OS_AMX (XS_XTILECFG | XS_XTILEDATA)

/* AT_HWCAP2 on x86 (<asm/hwcap2.h>): the kernel enabled FSGSBASE for ring 3. */
#define X86_HWCAP2_FSGSBASE (1u << 1)

typedef struct x86_row {
    const char *name;
    unsigned char leaf; /* enum x86_leaf */
    unsigned char reg;  /* enum x86_reg */
    unsigned char bit;
    unsigned os_state;  /* XCR0 bits that must all be enabled, 0: none */
    unsigned os_hwcap2; /* AT_HWCAP2 bits the kernel must grant, 0: none */
} x86_row;

/* Instruction-set features only (no virtualization, power or mitigation
 * flags), in cpufeatures.h word order. Left out on purpose: hle/rtm (TSX is
 * switched off by kernel policy on many parts), monitor (the kernel may hide
 * it), xsaves and enqcmd (kernel-only use). */
static const x86_row table[] = {
    /* word 0: leaf 1 EDX */
    {"fpu", L1, EDX, 0, 0, 0},
    {"tsc", L1, EDX, 4, 0, 0},
    {"cx8", L1, EDX, 8, 0, 0},
    {"cmov", L1, EDX, 15, 0, 0},
    {"clflush", L1, EDX, 19, 0, 0},
    {"mmx", L1, EDX, 23, 0, 0},
    {"fxsr", L1, EDX, 24, 0, 0},
    {"sse", L1, EDX, 25, 0, 0},
    {"sse2", L1, EDX, 26, 0, 0},
    /* word 1: leaf 0x80000001 EDX */
    {"mmxext", LX1, EDX, 22, 0, 0},
    {"rdtscp", LX1, EDX, 27, 0, 0},
    {"lm", LX1, EDX, 29, 0, 0},
    /* word 4: leaf 1 ECX */
    {"pni", L1, ECX, 0, 0, 0},
    {"pclmulqdq", L1, ECX, 1, 0, 0},
    {"ssse3", L1, ECX, 9, 0, 0},
    {"fma", L1, ECX, 12, OS_AVX, 0},
    {"cx16", L1, ECX, 13, 0, 0},
    {"sse4_1", L1, ECX, 19, 0, 0},
    {"sse4_2", L1, ECX, 20, 0, 0},
    {"movbe", L1, ECX, 22, 0, 0},
    {"popcnt", L1, ECX, 23, 0, 0},
    {"aes", L1, ECX, 25, 0, 0},
    {"xsave", L1, ECX, 26, OS_XSAVE, 0},
    {"avx", L1, ECX, 28, OS_AVX, 0},
    {"f16c", L1, ECX, 29, OS_AVX, 0},
    {"rdrand", L1, ECX, 30, 0, 0},
    /* word 6: leaf 0x80000001 ECX */
    {"lahf_lm", LX1, ECX, 0, 0, 0},
    {"abm", LX1, ECX, 5, 0, 0},
    {"sse4a", LX1, ECX, 6, 0, 0},
    {"xop", LX1, ECX, 11, OS_AVX, 0},
    {"fma4", LX1, ECX, 16, OS_AVX, 0},
    {"tbm", LX1, ECX, 21, 0, 0},
    /* word 9: leaf 7.0 EBX */
#if defined(__x86_64__) /* WRFSBASE and friends exist in 64-bit mode only */
    {"fsgsbase", L7_0, EBX, 0, 0, X86_HWCAP2_FSGSBASE},
#endif
    {"bmi1", L7_0, EBX, 3, 0, 0},
    {"avx2", L7_0, EBX, 5, OS_AVX, 0},
    {"bmi2", L7_0, EBX, 8, 0, 0},
    {"erms", L7_0, EBX, 9, 0, 0},
    {"avx512f", L7_0, EBX, 16, OS_AVX512, 0},
    {"avx512dq", L7_0, EBX, 17, OS_AVX512, 0},
    {"rdseed", L7_0, EBX, 18, 0, 0},
    {"adx", L7_0, EBX, 19, 0, 0},
    {"avx512ifma", L7_0, EBX, 21, OS_AVX512, 0},
    {"clflushopt", L7_0, EBX, 23, 0, 0},
    {"clwb", L7_0, EBX, 24, 0, 0},
    {"avx512pf", L7_0, EBX, 26, OS_AVX512, 0},
    {"avx512er", L7_0, EBX, 27, OS_AVX512, 0},
    {"avx512cd", L7_0, EBX, 28, OS_AVX512, 0},
    {"sha_ni", L7_0, EBX, 29, 0, 0},
    {"avx512bw", L7_0, EBX, 30, OS_AVX512, 0},
    {"avx512vl", L7_0, EBX, 31, OS_AVX512, 0},
    /* word 10: leaf 0xD.1 EAX */
    {"xsaveopt", LD_1, EAX, 0, OS_XSAVE, 0},
    {"xsavec", LD_1, EAX, 1, OS_XSAVE, 0},
    {"xgetbv1", LD_1, EAX, 2, OS_XSAVE, 0},
    /* word 12: leaf 7.1 EAX */
    {"avx_vnni", L7_1, EAX, 4, OS_AVX, 0},
    {"avx512_bf16", L7_1, EAX, 5, OS_AVX512, 0},
    /* word 16: leaf 7.0 ECX */
    {"avx512vbmi", L7_0, ECX, 1, OS_AVX512, 0},
    {"waitpkg", L7_0, ECX, 5, 0, 0},
    {"avx512_vbmi2", L7_0, ECX, 6, OS_AVX512, 0},
    {"gfni", L7_0, ECX, 8, 0, 0},
    {"vaes", L7_0, ECX, 9, OS_AVX, 0},
    {"vpclmulqdq", L7_0, ECX, 10, OS_AVX, 0},
    {"avx512_vnni", L7_0, ECX, 11, OS_AVX512, 0},
    {"avx512_bitalg", L7_0, ECX, 12, OS_AVX512, 0},
    {"avx512_vpopcntdq", L7_0, ECX, 14, OS_AVX512, 0},
    {"rdpid", L7_0, ECX, 22, 0, 0},
    {"cldemote", L7_0, ECX, 25, 0, 0},
    {"movdiri", L7_0, ECX, 27, 0, 0},
    {"movdir64b", L7_0, ECX, 28, 0, 0},
    /* word 18: leaf 7.0 EDX */
    {"avx512_4vnniw", L7_0, EDX, 2, OS_AVX512, 0},
    {"avx512_4fmaps", L7_0, EDX, 3, OS_AVX512, 0},
    {"fsrm", L7_0, EDX, 4, 0, 0},
    {"avx512_vp2intersect", L7_0, EDX, 8, OS_AVX512, 0},
    {"serialize", L7_0, EDX, 14, 0, 0},
    {"amx_bf16", L7_0, EDX, 22, OS_AMX, 0},
    {"avx512_fp16", L7_0, EDX, 23, OS_AVX512, 0},
    {"amx_tile", L7_0, EDX, 24, OS_AMX, 0},
    {"amx_int8", L7_0, EDX, 25, OS_AMX, 0},
};

#define PK_CPU_SOURCE "cpuid"

/* ------------------------------------------------- AArch64, ARM, MIPS */
#else

typedef struct hwcap_row {
    const char *name;
    unsigned char word; /* 1: AT_HWCAP, 2: AT_HWCAP2 */
    uint64_t mask;      /* from the kernel's <asm/hwcap.h> */
} hwcap_row;

#if defined(__aarch64__)
/* Names as arch/arm64/kernel/cpuinfo.c prints them. */
static const hwcap_row table[] = {
    {"fp", 1, HWCAP_FP},             {"asimd", 1, HWCAP_ASIMD},
    {"evtstrm", 1, HWCAP_EVTSTRM},   {"aes", 1, HWCAP_AES},
    {"pmull", 1, HWCAP_PMULL},       {"sha1", 1, HWCAP_SHA1},
    {"sha2", 1, HWCAP_SHA2},         {"crc32", 1, HWCAP_CRC32},
    {"atomics", 1, HWCAP_ATOMICS},   {"fphp", 1, HWCAP_FPHP},
    {"asimdhp", 1, HWCAP_ASIMDHP},   {"cpuid", 1, HWCAP_CPUID},
    {"asimdrdm", 1, HWCAP_ASIMDRDM}, {"jscvt", 1, HWCAP_JSCVT},
    {"fcma", 1, HWCAP_FCMA},         {"lrcpc", 1, HWCAP_LRCPC},
    {"dcpop", 1, HWCAP_DCPOP},       {"sha3", 1, HWCAP_SHA3},
    {"sm3", 1, HWCAP_SM3},           {"sm4", 1, HWCAP_SM4},
    {"asimddp", 1, HWCAP_ASIMDDP},   {"sha512", 1, HWCAP_SHA512},
    {"sve", 1, HWCAP_SVE},           {"asimdfhm", 1, HWCAP_ASIMDFHM},
    {"dit", 1, HWCAP_DIT},           {"uscat", 1, HWCAP_USCAT},
    {"ilrcpc", 1, HWCAP_ILRCPC},     {"flagm", 1, HWCAP_FLAGM},
    {"ssbs", 1, HWCAP_SSBS},         {"sb", 1, HWCAP_SB},
    {"paca", 1, HWCAP_PACA},         {"pacg", 1, HWCAP_PACG},

    {"dcpodp", 2, HWCAP2_DCPODP},         {"sve2", 2, HWCAP2_SVE2},
    {"sveaes", 2, HWCAP2_SVEAES},         {"svepmull", 2, HWCAP2_SVEPMULL},
    {"svebitperm", 2, HWCAP2_SVEBITPERM}, {"svesha3", 2, HWCAP2_SVESHA3},
    {"svesm4", 2, HWCAP2_SVESM4},         {"flagm2", 2, HWCAP2_FLAGM2},
    {"frint", 2, HWCAP2_FRINT},           {"svei8mm", 2, HWCAP2_SVEI8MM},
    {"svef32mm", 2, HWCAP2_SVEF32MM},     {"svef64mm", 2, HWCAP2_SVEF64MM},
    {"svebf16", 2, HWCAP2_SVEBF16},       {"i8mm", 2, HWCAP2_I8MM},
    {"bf16", 2, HWCAP2_BF16},             {"dgh", 2, HWCAP2_DGH},
    {"rng", 2, HWCAP2_RNG},               {"bti", 2, HWCAP2_BTI},
    {"mte", 2, HWCAP2_MTE},               {"ecv", 2, HWCAP2_ECV},
    {"afp", 2, HWCAP2_AFP},               {"rpres", 2, HWCAP2_RPRES},
    {"mte3", 2, HWCAP2_MTE3},             {"sme", 2, HWCAP2_SME},
    {"smei16i64", 2, HWCAP2_SME_I16I64},  {"smef64f64", 2, HWCAP2_SME_F64F64},
    {"smei8i32", 2, HWCAP2_SME_I8I32},    {"smef16f32", 2, HWCAP2_SME_F16F32},
    {"smeb16f32", 2, HWCAP2_SME_B16F32},  {"smef32f32", 2, HWCAP2_SME_F32F32},
    {"smefa64", 2, HWCAP2_SME_FA64},      {"wfxt", 2, HWCAP2_WFXT},
    {"ebf16", 2, HWCAP2_EBF16},           {"sveebf16", 2, HWCAP2_SVE_EBF16},
};
#elif defined(__arm__)
/* Names as arch/arm/kernel/setup.c prints them (hwcap_str, hwcap2_str). */
static const hwcap_row table[] = {
    {"swp", 1, HWCAP_SWP},         {"half", 1, HWCAP_HALF},
    {"thumb", 1, HWCAP_THUMB},     {"26bit", 1, HWCAP_26BIT},
    {"fastmult", 1, HWCAP_FAST_MULT}, {"fpa", 1, HWCAP_FPA},
    {"vfp", 1, HWCAP_VFP},         {"edsp", 1, HWCAP_EDSP},
    {"java", 1, HWCAP_JAVA},       {"iwmmxt", 1, HWCAP_IWMMXT},
    {"crunch", 1, HWCAP_CRUNCH},   {"thumbee", 1, HWCAP_THUMBEE},
    {"neon", 1, HWCAP_NEON},       {"vfpv3", 1, HWCAP_VFPv3},
    {"vfpv3d16", 1, HWCAP_VFPv3D16}, {"tls", 1, HWCAP_TLS},
    {"vfpv4", 1, HWCAP_VFPv4},     {"idiva", 1, HWCAP_IDIVA},
    {"idivt", 1, HWCAP_IDIVT},     {"vfpd32", 1, HWCAP_VFPD32},
    {"lpae", 1, HWCAP_LPAE},       {"evtstrm", 1, HWCAP_EVTSTRM},

    {"aes", 2, HWCAP2_AES},        {"pmull", 2, HWCAP2_PMULL},
    {"sha1", 2, HWCAP2_SHA1},      {"sha2", 2, HWCAP2_SHA2},
    {"crc32", 2, HWCAP2_CRC32},
};
#elif defined(__mips__)
/* The MIPS kernel prints no hwcap names; these are the spellings of its
 * /proc/cpuinfo "ASEs implemented" line (msa, dsp2, loongson-mmi, ...), and
 * the macro names lower-cased alike for r6, crc32 and loongson-cpucfg. */
static const hwcap_row table[] = {
    {"r6", 1, HWCAP_MIPS_R6},
    {"msa", 1, HWCAP_MIPS_MSA},
    {"crc32", 1, HWCAP_MIPS_CRC32},
    {"mips16", 1, HWCAP_MIPS_MIPS16},
    {"mdmx", 1, HWCAP_MIPS_MDMX},
    {"mips3d", 1, HWCAP_MIPS_MIPS3D},
    {"smartmips", 1, HWCAP_MIPS_SMARTMIPS},
    {"dsp", 1, HWCAP_MIPS_DSP},
    {"dsp2", 1, HWCAP_MIPS_DSP2},
    {"dsp3", 1, HWCAP_MIPS_DSP3},
    {"mips16e2", 1, HWCAP_MIPS_MIPS16E2},
    {"loongson-mmi", 1, HWCAP_LOONGSON_MMI},
    {"loongson-ext", 1, HWCAP_LOONGSON_EXT},
    {"loongson-ext2", 1, HWCAP_LOONGSON_EXT2},
    {"loongson-cpucfg", 1, HWCAP_LOONGSON_CPUCFG},
};
#else /* an architecture without a table: every set hwcap bit is "unnamed" */
static const hwcap_row table[1] = {{"", 0, 0}}; /* C forbids empty arrays; this row is never listed */
#define PK_CPU_NO_TABLE 1
#endif

#define PK_CPU_SOURCE "hwcap"

#endif

#ifdef PK_CPU_NO_TABLE
static const size_t table_len = 0;
#else
static const size_t table_len = ARRAY_LEN(table);
#endif

/* ---------------------------------------------------- detected state */

#define UNNAMED_MAX 128 /* 64 bits of AT_HWCAP + 64 of AT_HWCAP2 */
#define UNNAMED_LEN 16  /* "hwcap2_bit63" */

static struct {
    pk_cpu_info info;
    pk_cpu_feature features[ARRAY_LEN(table)];
    char unnamed_names[UNNAMED_MAX][UNNAMED_LEN];
    const char *unnamed[UNNAMED_MAX];
    char vendor[64];
    char model[128];
} state;

static pthread_once_t detect_once = PTHREAD_ONCE_INIT;

/* Keeps a string in `dst` (trimmed of surrounding blanks) and returns it, or
 * NULL when nothing printable is left. (inline: unused on an architecture
 * without vendor strings.) */
static inline const char *keep_string(char *dst, size_t size, const char *src)
{
    while (*src && isspace((unsigned char)*src))
        src++;
    snprintf(dst, size, "%s", src);
    size_t len = strlen(dst);
    while (len > 0 && isspace((unsigned char)dst[len - 1]))
        dst[--len] = '\0';
    return len ? dst : NULL;
}

/* The kernel's AT_HWCAP/AT_HWCAP2 exactly as it passed them. getauxval() is
 * not enough on x86: glibc replaces its AT_HWCAP answer with its own platform
 * bits (init_cpu_features overwrites dl_hwcap), so /proc/self/auxv, which
 * the kernel (or qemu-user) fills from the real vector, comes first. False
 * when it cannot be read (no /proc on a minimal board). */
static bool hwcaps_from_proc(uint64_t *hwcap, uint64_t *hwcap2)
{
    FILE *f = fopen("/proc/self/auxv", "rb");
    if (!f)
        return false;
    unsigned long entry[2]; /* the auxv word size is the process's */
    bool any = false;
    while (fread(entry, sizeof entry, 1, f) == 1 && entry[0] != AT_NULL) {
        any = true;
        if (entry[0] == AT_HWCAP)
            *hwcap = entry[1];
#ifdef AT_HWCAP2
        if (entry[0] == AT_HWCAP2)
            *hwcap2 = entry[1];
#endif
    }
    fclose(f);
    return any;
}

static void read_auxv(pk_cpu_info *info)
{
    info->platform = (const char *)getauxval(AT_PLATFORM);
    if (hwcaps_from_proc(&info->hwcap, &info->hwcap2))
        return;
    info->hwcap = getauxval(AT_HWCAP);
#ifdef AT_HWCAP2
    info->hwcap2 = getauxval(AT_HWCAP2);
#endif
#ifdef PK_CPU_X86
    /* The kernel's x86 AT_HWCAP is its view of cpuid leaf 1 EDX. */
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d))
        info->hwcap = d;
#endif
}

/* ------------------------------------------------------- /proc/cpuinfo */
#if defined(__aarch64__) || defined(__arm__) || defined(__mips__)

/* Fills values[i] with the value of the first "keys[i] : value" line of
 * /proc/cpuinfo; values of keys not found stay empty. Never fails: on a
 * board without /proc the model is simply unknown. */
static void cpuinfo_values(const char *const keys[], char values[][64], size_t n)
{
    for (size_t i = 0; i < n; i++)
        values[i][0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        size_t key_len = (size_t)(colon - line);
        while (key_len > 0 && isspace((unsigned char)line[key_len - 1]))
            key_len--;
        for (size_t i = 0; i < n; i++)
            if (!values[i][0] && strlen(keys[i]) == key_len && !strncmp(line, keys[i], key_len))
                keep_string(values[i], sizeof values[i], colon + 1);
    }
    free(line);
    fclose(f);
}

#endif

/* ---------------------------------------------------------- x86 engine */
#ifdef PK_CPU_X86

typedef unsigned x86_regs[4];

static void read_leaves(x86_regs regs[X86_LEAF_COUNT])
{
    unsigned max_basic = __get_cpuid_max(0, NULL);
    unsigned max_ext = __get_cpuid_max(0x80000000u, NULL);
    memset(regs, 0, sizeof(x86_regs) * X86_LEAF_COUNT);
    for (int i = 0; i < X86_LEAF_COUNT; i++) {
        unsigned leaf = x86_leaves[i].leaf, sub = x86_leaves[i].subleaf;
        unsigned max = leaf >= 0x80000000u ? max_ext : max_basic;
        if (max == 0 || leaf > max)
            continue;
        /* Subleaves of leaf 7 exist up to the count in 7.0 EAX. */
        if (leaf == 0x7 && sub > 0 && sub > regs[L7_0][EAX])
            continue;
        __cpuid_count(leaf, sub, regs[i][EAX], regs[i][EBX], regs[i][ECX], regs[i][EDX]);
    }
}

/* XCR0: the register state the OS saves. 0 when XSAVE is not OS-enabled
 * (xgetbv would fault then). */
static uint64_t read_xcr0(const x86_regs regs[X86_LEAF_COUNT])
{
    const unsigned osxsave = 1u << 27; /* leaf 1 ECX */
    if (!(regs[L1][ECX] & osxsave))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static void read_vendor_and_brand(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) > 0) {
        char vendor[13];
        __cpuid(0, a, b, c, d);
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
        vendor[12] = '\0';
        state.info.vendor = keep_string(state.vendor, sizeof state.vendor, vendor);
    }
    if (__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
        char brand[49];
        for (unsigned i = 0; i < 3; i++) {
            __cpuid(0x80000002u + i, a, b, c, d);
            memcpy(brand + 16 * i, &a, 4);
            memcpy(brand + 16 * i + 4, &b, 4);
            memcpy(brand + 16 * i + 8, &c, 4);
            memcpy(brand + 16 * i + 12, &d, 4);
        }
        brand[48] = '\0';
        state.info.model = keep_string(state.model, sizeof state.model, brand);
    }
}

static bool row_present(const x86_row *row, const x86_regs regs[X86_LEAF_COUNT], uint64_t xcr0, uint64_t hwcap2)
{
    if (!(regs[row->leaf][row->reg] >> row->bit & 1u))
        return false;
    if ((xcr0 & row->os_state) != row->os_state)
        return false;
    return (hwcap2 & row->os_hwcap2) == row->os_hwcap2;
}

static void detect_arch(void)
{
    x86_regs regs[X86_LEAF_COUNT];
    read_leaves(regs);
    state.info.xcr0 = read_xcr0(regs);
    for (size_t i = 0; i < table_len; i++) {
        state.features[i].name = table[i].name;
        state.features[i].present = row_present(&table[i], regs, state.info.xcr0, state.info.hwcap2);
    }
    read_vendor_and_brand();
}

/* ------------------------------------------------------- hwcap engine */
#else

static uint64_t hwcap_word(unsigned word)
{
    return word == 1 ? state.info.hwcap : state.info.hwcap2;
}

/* Set bits of one hwcap word that no row names become "hwcap_bitN". */
static void add_unnamed_bits(unsigned word, const char *prefix)
{
    uint64_t named = 0;
    for (size_t i = 0; i < table_len; i++)
        if (table[i].word == word)
            named |= table[i].mask;
    uint64_t rest = hwcap_word(word) & ~named;
    for (unsigned bit = 0; bit < 64; bit++) {
        size_t n = state.info.unnamed_count;
        if (!(rest >> bit & 1u) || n >= UNNAMED_MAX)
            continue;
        snprintf(state.unnamed_names[n], UNNAMED_LEN, "%s_bit%u", prefix, bit);
        state.unnamed[n] = state.unnamed_names[n];
        state.info.unnamed_count = n + 1;
    }
}

#if defined(__aarch64__) || defined(__arm__)

/* MIDR implementer codes (Arm ARM, MIDR_EL1) and Arm Ltd part numbers
 * (the kernel's asm/cputype.h), for a readable model. */
typedef struct id_name {
    unsigned id;
    const char *name;
} id_name;

static const id_name arm_implementers[] = {
    {0x41, "ARM"},      {0x42, "Broadcom"}, {0x43, "Cavium"},    {0x46, "Fujitsu"},
    {0x48, "HiSilicon"}, {0x4e, "NVIDIA"},  {0x50, "APM"},       {0x51, "Qualcomm"},
    {0x53, "Samsung"},  {0x56, "Marvell"},  {0x61, "Apple"},     {0x69, "Intel"},
    {0x6d, "Microsoft"}, {0xc0, "Ampere"},
}, arm_parts[] = {
    {0xc05, "Cortex-A5"},   {0xc07, "Cortex-A7"},   {0xc08, "Cortex-A8"},
    {0xc09, "Cortex-A9"},   {0xc0d, "Cortex-A12"},  {0xc0e, "Cortex-A17"},
    {0xc0f, "Cortex-A15"},  {0xd03, "Cortex-A53"},  {0xd04, "Cortex-A35"},
    {0xd05, "Cortex-A55"},  {0xd07, "Cortex-A57"},  {0xd08, "Cortex-A72"},
    {0xd09, "Cortex-A73"},  {0xd0a, "Cortex-A75"},  {0xd0b, "Cortex-A76"},
    {0xd0c, "Neoverse-N1"}, {0xd0d, "Cortex-A77"},  {0xd0e, "Cortex-A76AE"},
    {0xd40, "Neoverse-V1"}, {0xd41, "Cortex-A78"},  {0xd42, "Cortex-A78AE"},
    {0xd44, "Cortex-X1"},   {0xd46, "Cortex-A510"}, {0xd47, "Cortex-A710"},
    {0xd48, "Cortex-X2"},   {0xd49, "Neoverse-N2"}, {0xd4b, "Cortex-A78C"},
    {0xd4c, "Cortex-X1C"},  {0xd4d, "Cortex-A715"}, {0xd4e, "Cortex-X3"},
    {0xd4f, "Neoverse-V2"}, {0xd80, "Cortex-A520"}, {0xd81, "Cortex-A720"},
    {0xd82, "Cortex-X4"},   {0xd84, "Neoverse-V3"}, {0xd8e, "Neoverse-N3"},
};

typedef struct arm_id {
    unsigned implementer, variant, part, revision;
} arm_id;

static bool parse_uint(const char *s, unsigned *out)
{
    char *end;
    if (!*s)
        return false;
    unsigned long v = strtoul(s, &end, 0);
    if (*end || v > 0xffff)
        return false;
    *out = (unsigned)v;
    return true;
}

/* The identification of the first CPU in /proc/cpuinfo. Only a cpuinfo with
 * "CPU implementer" lines counts: under qemu-user, /proc/cpuinfo is the
 * host's, and its x86 "model name" would be a wrong answer. */
static bool arm_id_from_cpuinfo(arm_id *id)
{
    static const char *const keys[] = {"CPU implementer", "CPU variant", "CPU part", "CPU revision"};
    char values[4][64];
    cpuinfo_values(keys, values, 4);
    return parse_uint(values[0], &id->implementer) && parse_uint(values[1], &id->variant) &&
           parse_uint(values[2], &id->part) && parse_uint(values[3], &id->revision);
}

/* AArch64 kernels (and qemu-user) emulate EL0 reads of MIDR_EL1 when they
 * advertise HWCAP_CPUID (Documentation/arm64/cpu-feature-registers.rst). */
static bool arm_id_from_midr(arm_id *id)
{
#if defined(__aarch64__)
    if (!(state.info.hwcap & HWCAP_CPUID))
        return false;
    uint64_t midr;
    __asm__ volatile("mrs %0, MIDR_EL1" : "=r"(midr));
    id->implementer = (unsigned)(midr >> 24) & 0xff;
    id->variant = (unsigned)(midr >> 20) & 0xf;
    id->part = (unsigned)(midr >> 4) & 0xfff;
    id->revision = (unsigned)midr & 0xf;
    return true;
#else
    (void)id; /* 32-bit ARM: MIDR is not readable from user mode */
    return false;
#endif
}

static const char *lookup_id(unsigned id, const id_name *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].id == id)
            return rows[i].name;
    return NULL;
}

static void read_vendor_and_model(void)
{
    arm_id id;
    if (!arm_id_from_cpuinfo(&id) && !arm_id_from_midr(&id))
        return;
    const char *vendor = lookup_id(id.implementer, arm_implementers, ARRAY_LEN(arm_implementers));
    const char *part = id.implementer == 0x41 ? lookup_id(id.part, arm_parts, ARRAY_LEN(arm_parts)) : NULL;
    if (vendor)
        state.info.vendor = keep_string(state.vendor, sizeof state.vendor, vendor);
    if (part)
        snprintf(state.model, sizeof state.model, "%s r%up%u", part, id.variant, id.revision);
    else if (vendor)
        snprintf(state.model, sizeof state.model, "part 0x%03x r%up%u", id.part, id.variant, id.revision);
    else
        snprintf(state.model, sizeof state.model, "implementer 0x%02x part 0x%03x r%up%u", id.implementer, id.part,
                 id.variant, id.revision);
    state.info.model = state.model;
}

#elif defined(__mips__)

/* The MIPS kernel prints "cpu model : Loongson-3 V0.4  FPU V0.1"; other
 * architectures have no such key, so a host's cpuinfo under qemu is ignored. */
static void read_vendor_and_model(void)
{
    static const char *const keys[] = {"cpu model"};
    char values[1][64];
    cpuinfo_values(keys, values, 1);
    state.info.model = keep_string(state.model, sizeof state.model, values[0]);
}

#else

static void read_vendor_and_model(void) {}

#endif

static void detect_arch(void)
{
    for (size_t i = 0; i < table_len; i++) {
        state.features[i].name = table[i].name;
        state.features[i].present = (hwcap_word(table[i].word) & table[i].mask) != 0;
    }
    add_unnamed_bits(1, "hwcap");
    add_unnamed_bits(2, "hwcap2");
    read_vendor_and_model();
}

#endif

/* -------------------------------------------------------- public API */

static void detect(void)
{
    pk_cpu_info *info = &state.info;
    info->arch = PK_ARCH;
    info->source = PK_CPU_SOURCE;
    read_auxv(info);
    detect_arch();
    info->features = state.features;
    info->feature_count = table_len;
    info->unnamed = state.unnamed;
}

const pk_cpu_info *pk_cpu_info_get(void)
{
    pthread_once(&detect_once, detect);
    return &state.info;
}

/* The feature row for NAME, or NULL. */
static const pk_cpu_feature *find_feature(const pk_cpu_info *info, const char *name)
{
    for (size_t i = 0; i < info->feature_count; i++)
        if (!strcmp(info->features[i].name, name))
            return &info->features[i];
    return NULL;
}

static bool is_unnamed_bit(const pk_cpu_info *info, const char *name)
{
    for (size_t i = 0; i < info->unnamed_count; i++)
        if (!strcmp(info->unnamed[i], name))
            return true;
    return false;
}

bool pk_cpu_has(const char *name)
{
    if (!name)
        return false;
    const pk_cpu_info *info = pk_cpu_info_get();
    const pk_cpu_feature *f = find_feature(info, name);
    return f ? f->present : is_unnamed_bit(info, name);
}

bool pk_cpu_known(const char *name)
{
    if (!name)
        return false;
    const pk_cpu_info *info = pk_cpu_info_get();
    return find_feature(info, name) || is_unnamed_bit(info, name);
}
