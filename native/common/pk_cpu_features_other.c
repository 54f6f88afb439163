/* CPU features on an architecture without a table (riscv64, powerpc,
 * s390x, loongarch64, ...): every set hwcap bit is reported as "hwcap_bitN",
 * unnamed but never hidden, and no vendor or model. */
#include "pk_cpu_features_isa.h"

#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__) && !defined(__arm__) && !defined(__mips__)

const char pk_cpu_isa_source[] = "hwcap";

void pk_cpu_isa_detect(pk_cpu_state *s)
{
    pk_cpu_hwcap_detect(s, NULL, 0);
}

#endif
