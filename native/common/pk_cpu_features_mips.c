/* CPU features on MIPS, Loongson's included: AT_HWCAP with the bit masks of
 * the kernel's <asm/hwcap.h>, and the "cpu model" line of /proc/cpuinfo. */
#include "pk_cpu_features_isa.h"

#if defined(__mips__)

#include <asm/hwcap.h>

/* The MIPS kernel prints no hwcap names; these are the spellings of its
 * /proc/cpuinfo "ASEs implemented" line (msa, dsp2, loongson-mmi, ...), and
 * the macro names lower-cased alike for r6, crc32 and loongson-cpucfg. */
static const pk_cpu_hwcap_row table[] = {
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
_Static_assert(PK_CPU_ARRAY_LEN(table) <= PK_CPU_MAX_FEATURES, "MIPS table larger than PK_CPU_MAX_FEATURES");

const char pk_cpu_isa_source[] = "hwcap";

/* The MIPS kernel prints "cpu model : Loongson-3 V0.4  FPU V0.1"; other
 * architectures have no such key, so a host's cpuinfo under qemu is ignored. */
static void read_vendor_and_model(pk_cpu_state *s)
{
    static const char *const keys[] = {"cpu model"};
    char values[1][64];
    pk_cpu_cpuinfo_values(keys, values, 1);
    s->info.model = pk_cpu_keep_string(s->model, sizeof s->model, values[0]);
}

void pk_cpu_isa_detect(pk_cpu_state *s)
{
    pk_cpu_hwcap_detect(s, table, PK_CPU_ARRAY_LEN(table));
    read_vendor_and_model(s);
}

#endif
