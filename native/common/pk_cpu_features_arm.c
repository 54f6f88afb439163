/* CPU features on AArch64 and 32-bit ARM: AT_HWCAP/AT_HWCAP2 with the bit
 * masks of the kernel's own <asm/hwcap.h> for that architecture (only that
 * one is compiled), and the core's name from MIDR. */
#include "pk_cpu_features_isa.h"

#if defined(__aarch64__) || defined(__arm__)

#include <asm/hwcap.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__aarch64__)
/* Names as arch/arm64/kernel/cpuinfo.c prints them. */
static const pk_cpu_hwcap_row table[] = {
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
#else
/* Names as arch/arm/kernel/setup.c prints them (hwcap_str, hwcap2_str). */
static const pk_cpu_hwcap_row table[] = {
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
#endif
_Static_assert(PK_CPU_ARRAY_LEN(table) <= PK_CPU_MAX_FEATURES, "ARM table larger than PK_CPU_MAX_FEATURES");

const char pk_cpu_isa_source[] = "hwcap";

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
    pk_cpu_cpuinfo_values(keys, values, 4);
    return parse_uint(values[0], &id->implementer) && parse_uint(values[1], &id->variant) &&
           parse_uint(values[2], &id->part) && parse_uint(values[3], &id->revision);
}

/* AArch64 kernels (and qemu-user) emulate EL0 reads of MIDR_EL1 when they
 * advertise HWCAP_CPUID (Documentation/arm64/cpu-feature-registers.rst). */
static bool arm_id_from_midr(const pk_cpu_state *s, arm_id *id)
{
#if defined(__aarch64__)
    if (!(s->info.hwcap & HWCAP_CPUID))
        return false;
    uint64_t midr;
    __asm__ volatile("mrs %0, MIDR_EL1" : "=r"(midr));
    id->implementer = (unsigned)(midr >> 24) & 0xff;
    id->variant = (unsigned)(midr >> 20) & 0xf;
    id->part = (unsigned)(midr >> 4) & 0xfff;
    id->revision = (unsigned)midr & 0xf;
    return true;
#else
    (void)s;
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

static void read_vendor_and_model(pk_cpu_state *s)
{
    arm_id id;
    if (!arm_id_from_cpuinfo(&id) && !arm_id_from_midr(s, &id))
        return;
    const char *vendor = lookup_id(id.implementer, arm_implementers, PK_CPU_ARRAY_LEN(arm_implementers));
    const char *part = id.implementer == 0x41 ? lookup_id(id.part, arm_parts, PK_CPU_ARRAY_LEN(arm_parts)) : NULL;
    if (vendor)
        s->info.vendor = pk_cpu_keep_string(s->vendor, sizeof s->vendor, vendor);
    if (part)
        snprintf(s->model, sizeof s->model, "%s r%up%u", part, id.variant, id.revision);
    else if (vendor)
        snprintf(s->model, sizeof s->model, "part 0x%03x r%up%u", id.part, id.variant, id.revision);
    else
        snprintf(s->model, sizeof s->model, "implementer 0x%02x part 0x%03x r%up%u", id.implementer, id.part,
                 id.variant, id.revision);
    s->info.model = s->model;
}

void pk_cpu_isa_detect(pk_cpu_state *s)
{
    pk_cpu_hwcap_detect(s, table, PK_CPU_ARRAY_LEN(table));
    read_vendor_and_model(s);
}

#endif
