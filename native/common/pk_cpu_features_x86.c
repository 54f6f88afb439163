/* CPU features on x86 (x86_64 and i686): cpuid leaves 1, 7.0, 7.1, 0xD.1 and
 * 0x80000001 in the kernel's cpufeatures.h layout, gated by XCR0 the way the
 * kernel clears features whose register state it does not save. */
#include "pk_cpu_features_isa.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>
#include <string.h>

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

_Static_assert(PK_CPU_ARRAY_LEN(table) <= PK_CPU_MAX_FEATURES, "x86 table larger than PK_CPU_MAX_FEATURES");

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

static void read_vendor_and_brand(pk_cpu_state *s)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) > 0) {
        char vendor[13];
        __cpuid(0, a, b, c, d);
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
        vendor[12] = '\0';
        s->info.vendor = pk_cpu_keep_string(s->vendor, sizeof s->vendor, vendor);
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
        s->info.model = pk_cpu_keep_string(s->model, sizeof s->model, brand);
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

const char pk_cpu_isa_source[] = "cpuid";

void pk_cpu_isa_detect(pk_cpu_state *s)
{
    /* Without /proc/self/auxv, glibc's getauxval(AT_HWCAP) is its own
     * platform bits; the kernel's x86 AT_HWCAP is its view of leaf 1 EDX. */
    unsigned a, b, c, d;
    if (!s->hwcaps_from_proc && __get_cpuid(1, &a, &b, &c, &d))
        s->info.hwcap = d;
    x86_regs regs[X86_LEAF_COUNT];
    read_leaves(regs);
    s->info.xcr0 = read_xcr0(regs);
    for (size_t i = 0; i < PK_CPU_ARRAY_LEN(table); i++) {
        s->features[i].name = table[i].name;
        s->features[i].present = row_present(&table[i], regs, s->info.xcr0, s->info.hwcap2);
    }
    s->info.feature_count = PK_CPU_ARRAY_LEN(table);
    read_vendor_and_brand(s);
}

#endif
