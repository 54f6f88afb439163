/* The one place that picks a CRC32C implementation.
 *
 * pk_crc32c() is a single indirect call through `selected`, which starts out
 * pointing at first_call(): that builds the constants, reads the CPU features
 * and PORTKIT_CRC32C once, stores the choice, and every later call goes
 * straight to the chosen kernel. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c_impls.h"
#include "crc32c_math.h"
#include "portkit/crc32c.h"

typedef struct {
    const char *name;
    pk_crc32c_fn fn;
    bool (*supported)(void);
    void (*init)(void); /* builds the implementation's constants; NULL: none */
} implementation;

static bool always(void) { return true; }

/* Slowest first; the automatic choice is the last one the CPU supports. */
static const implementation implementations[] = {
    { "portable", pk_crc32c_portable, always, pk_crc32c_portable_init },
#if defined(PK_CRC32C_X86)
    { "sse42", pk_crc32c_sse42, pk_crc32c_sse42_supported, NULL },
    { "avx2_vpclmul", pk_crc32c_avx2_vpclmul, pk_crc32c_avx2_vpclmul_supported, pk_crc32c_vpclmul_init },
#endif
#if defined(PK_CRC32C_X86_64)
    { "avx2_fused", pk_crc32c_avx2_fused, pk_crc32c_avx2_vpclmul_supported, pk_crc32c_vpclmul_init },
    { "avx512_vpclmul", pk_crc32c_avx512_vpclmul, pk_crc32c_avx512_vpclmul_supported, pk_crc32c_avx512_init },
#endif
#if defined(PK_CRC32C_ARM64)
    { "arm64_crc", pk_crc32c_arm64_crc, pk_crc32c_arm64_crc_supported, NULL },
    { "arm64_crc_pmull", pk_crc32c_arm64_crc_pmull, pk_crc32c_arm64_pmull_supported, NULL },
    { "arm64_pmull", pk_crc32c_arm64_pmull, pk_crc32c_arm64_pmull_supported, pk_crc32c_arm64_pmull_init },
    { "arm64_pmull_eor3", pk_crc32c_arm64_pmull_eor3, pk_crc32c_arm64_pmull_eor3_supported,
      pk_crc32c_arm64_pmull_init },
#endif
};
#define N_IMPL (sizeof implementations / sizeof implementations[0])

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *available[N_IMPL + 1];
static pk_crc32c_fn best;
static char best_name[128];

static uint32_t first_call(uint32_t crc, const void *buf, size_t len);
static _Atomic(pk_crc32c_fn) selected = first_call;

static const implementation *find(const char *name)
{
    for (size_t i = 0; i < N_IMPL; i++)
        if (strcmp(implementations[i].name, name) == 0)
            return &implementations[i];
    return NULL;
}

/* Builds the shared constants, then those of each implementation this CPU
 * can run (rows that share an init stand next to each other: it runs once). */
static void choose(void)
{
    pk_crc32c_math_init();
    void (*last_init)(void) = NULL;
    size_t n = 0;
    const implementation *pick = &implementations[0];
    for (size_t i = 0; i < N_IMPL; i++) {
        const implementation *impl = &implementations[i];
        if (!impl->supported())
            continue;
        if (impl->init && impl->init != last_init) {
            impl->init();
            last_init = impl->init;
        }
        available[n++] = impl->name;
        pick = impl;
    }
    available[n] = NULL;

    const char *forced = getenv("PORTKIT_CRC32C");
    if (forced && *forced && strcmp(forced, "auto") != 0) {
        const implementation *f = find(forced);
        if (f && f->supported())
            pick = f;
        else
            snprintf(best_name, sizeof best_name, "%s (PORTKIT_CRC32C=%.40s: %s)",
                     pick->name, forced, f ? "not supported by this CPU" : "unknown");
    }
    if (!best_name[0])
        snprintf(best_name, sizeof best_name, "%s", pick->name);
    best = pick->fn;
    /* Release: a thread that sees the new pointer also sees the tables. */
    atomic_store_explicit(&selected, best, memory_order_release);
}

static void ensure_init(void)
{
    pthread_once(&once, choose);
}

static uint32_t first_call(uint32_t crc, const void *buf, size_t len)
{
    ensure_init();
    return best(crc, buf, len);
}

uint32_t pk_crc32c(uint32_t crc, const void *buf, size_t len)
{
    return atomic_load_explicit(&selected, memory_order_acquire)(crc, buf, len);
}

uint32_t pk_crc32c_combine(uint32_t crc1, uint32_t crc2, size_t len2)
{
    /* With init and final xor 0xFFFFFFFF they cancel out of the sum:
     * crc(A||B) = crc(A) * x^(8*len(B)) + crc(B)  (mod P). */
    ensure_init();
    return pk_crc32c_shift(crc1, len2) ^ crc2;
}

const char *pk_crc32c_implementation(void)
{
    ensure_init();
    return best_name;
}

const char *const *pk_crc32c_implementations(void)
{
    ensure_init();
    return available;
}

pk_crc32c_fn pk_crc32c_get(const char *name)
{
    ensure_init();
    const implementation *f = name ? find(name) : NULL;
    return f && f->supported() ? f->fn : NULL;
}
