/* CPU feature detection against the kernel's own view.
 *
 * Ground truth is /proc/cpuinfo: on x86 its "flags" line, on an ARM kernel
 * its "Features" line. Every feature of our table must be present exactly
 * when the kernel lists it. Under qemu-user /proc/cpuinfo belongs to the
 * host, so for a foreign architecture only the consistency checks run (the
 * pytest suite compares those agents with glibc's LD_SHOW_AUXV instead). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "pk_cpu_features.h"
#include "pk_test.h"

#if defined(__x86_64__) || defined(__i386__)
#define CPUINFO_KEY "flags"
#elif defined(__aarch64__) || defined(__arm__)
#define CPUINFO_KEY "Features"
#endif

/* ------------------------------------------------------ /proc/cpuinfo */
#ifdef CPUINFO_KEY /* MIPS kernels print no hwcap names to compare with */

/* The value of the first "KEY : ..." line, malloc'd, or NULL. */
static char *cpuinfo_line(const char *key)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return NULL;
    char *line = NULL, *value = NULL;
    size_t cap = 0, key_len = strlen(key);
    while (!value && getline(&line, &cap, f) > 0) {
        if (strncmp(line, key, key_len) || !strchr(line, ':'))
            continue;
        const char *rest = line + key_len;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (*rest == ':')
            value = strdup(rest + 1);
    }
    free(line);
    fclose(f);
    return value;
}

/* Whether WORD appears as a whole blank-separated word in LIST. */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
        bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
        bool ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';
        if (starts && ends)
            return true;
    }
    return false;
}

#endif

/* Every table feature is present exactly when the kernel lists it. */
static void test_matches_kernel(const pk_cpu_info *info)
{
#ifdef CPUINFO_KEY
    char *list = cpuinfo_line(CPUINFO_KEY);
    if (!list) {
        fprintf(stderr, "note: no '%s' line in /proc/cpuinfo (qemu-user?), kernel comparison skipped\n",
                CPUINFO_KEY);
        return;
    }
    for (size_t i = 0; i < info->feature_count; i++) {
        const pk_cpu_feature *f = &info->features[i];
        /* Every name in the tables is one the kernel prints, so there are
         * no exclusions. Known ways they could legitimately differ, none of
         * which applies on the machines this runs on: booting with
         * clearcpuid=/noxsave-style options, or a kernel older than 6.9,
         * whose cpuid-deps cleared gfni/vaes/vpclmulqdq along with AVX-512
         * when it did not enable the ZMM state. */
        bool kernel = has_word(list, f->name);
        if (f->present != kernel)
            fprintf(stderr, "mismatch: %s: portkit %s, /proc/cpuinfo %s\n", f->name,
                    f->present ? "present" : "absent", kernel ? "present" : "absent");
        CHECK(f->present == kernel);
    }
    free(list);
#else
    (void)info;
#endif
}

/* ------------------------------------------------------- consistency */

static void test_lookup(const pk_cpu_info *info)
{
    CHECK(info->feature_count > 0);
    for (size_t i = 0; i < info->feature_count; i++) {
        const pk_cpu_feature *f = &info->features[i];
        CHECK(pk_cpu_known(f->name));
        CHECK(pk_cpu_has(f->name) == f->present);
        for (size_t k = i + 1; k < info->feature_count; k++)
            CHECK(strcmp(f->name, info->features[k].name) != 0);
    }
    for (size_t i = 0; i < info->unnamed_count; i++) {
        CHECK(pk_cpu_has(info->unnamed[i]));
        CHECK(!strncmp(info->unnamed[i], "hwcap", 5));
    }
    CHECK(!pk_cpu_has("nonsense"));
    CHECK(!pk_cpu_known("nonsense"));
    CHECK(!pk_cpu_has(""));
    CHECK(!pk_cpu_has(NULL));
    CHECK(!pk_cpu_known(NULL));
    CHECK(!pk_cpu_has("SSE4_2")); /* names are exact, as the kernel prints them */
}

/* The names the CRC32C dispatcher asks for exist on its architectures. */
static void test_dispatcher_names(void)
{
#if defined(__x86_64__) || defined(__i386__)
    static const char *const names[] = {"sse4_2", "pclmulqdq", "avx2", "avx512f", "avx512vl", "vpclmulqdq"};
    CHECK(!pk_cpu_known("crc32") && !pk_cpu_known("neon"));
#elif defined(__aarch64__)
    static const char *const names[] = {"crc32", "pmull", "sha3", "asimd", "sve2"};
    CHECK(!pk_cpu_known("sse4_2"));
#elif defined(__arm__)
    static const char *const names[] = {"crc32", "pmull", "neon"};
#elif defined(__mips__)
    static const char *const names[] = {"crc32", "msa"};
#else
    static const char *const names[] = {NULL};
#endif
    for (size_t i = 0; i < sizeof names / sizeof names[0] && names[i]; i++) {
        if (!pk_cpu_known(names[i]))
            fprintf(stderr, "unknown dispatcher name: %s\n", names[i]);
        CHECK(pk_cpu_known(names[i]));
    }
}

#if !defined(__x86_64__) && !defined(__i386__)
static size_t popcount64(uint64_t v)
{
    size_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}
#endif

#if defined(__x86_64__) || defined(__i386__)
/* x86's AT_HWCAP is the kernel's cpufeatures word 0 (cpuid 1 EDX), which it
 * also prints in "flags". (glibc's getauxval(AT_HWCAP) cannot be the
 * reference here: glibc substitutes its own platform bits on x86.) */
static void test_hwcap_is_kernel_word0(const pk_cpu_info *info)
{
    static const struct {
        const char *name;
        unsigned bit;
    } word0[] = {{"fpu", 0}, {"vme", 1}, {"de", 2},     {"pse", 3},     {"tsc", 4},   {"msr", 5},
                 {"pae", 6}, {"mce", 7}, {"cx8", 8},    {"apic", 9},    {"sep", 11},  {"mtrr", 12},
                 {"pge", 13}, {"mca", 14}, {"cmov", 15}, {"pat", 16},   {"pse36", 17}, {"clflush", 19},
                 {"mmx", 23}, {"fxsr", 24}, {"sse", 25}, {"sse2", 26}};
    char *flags = cpuinfo_line("flags");
    if (!flags)
        return;
    for (size_t i = 0; i < sizeof word0 / sizeof word0[0]; i++) {
        bool bit = info->hwcap >> word0[i].bit & 1u;
        if (bit != has_word(flags, word0[i].name))
            fprintf(stderr, "AT_HWCAP bit %u (%s) disagrees with /proc/cpuinfo\n", word0[i].bit, word0[i].name);
        CHECK(bit == has_word(flags, word0[i].name));
    }
    free(flags);
}
#endif

static void test_raw_values(const pk_cpu_info *info)
{
    CHECK(info->arch && info->source);
    CHECK(info->hwcap2 == getauxval(AT_HWCAP2));
#if defined(__x86_64__) || defined(__i386__)
    test_hwcap_is_kernel_word0(info);
    CHECK(!strcmp(info->source, "cpuid"));
    CHECK(info->vendor != NULL);
    /* AVX needs SSE+YMM state, AVX-512 also opmask and both ZMM parts. */
    if (pk_cpu_has("avx"))
        CHECK((info->xcr0 & 0x6) == 0x6);
    if (pk_cpu_has("avx512f"))
        CHECK((info->xcr0 & 0xe6) == 0xe6);
    CHECK(pk_cpu_has("sse2")); /* every x86 Linux this runs on */
#else
    CHECK(info->hwcap == getauxval(AT_HWCAP));
    CHECK(!strcmp(info->source, "hwcap"));
    CHECK(info->xcr0 == 0);
    /* Rows are distinct single bits, so each set bit is exactly one
     * reported name: a named feature or a "hwcap_bitN". */
    size_t present = 0;
    for (size_t i = 0; i < info->feature_count; i++)
        present += info->features[i].present;
    CHECK(present + info->unnamed_count == popcount64(info->hwcap) + popcount64(info->hwcap2));
#endif
}

/* --------------------------------------------------------- threading */

#define THREADS 8

static void *first_use(void *arg)
{
    (void)arg;
    pk_cpu_has("sse2");
    return (void *)pk_cpu_info_get();
}

/* Runs before any other call, so the threads race for the first detection. */
static void test_concurrent_first_use(void)
{
    pthread_t threads[THREADS];
    void *seen[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&threads[i], NULL, first_use, NULL) == 0);
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_join(threads[i], &seen[i]) == 0);
        CHECK(seen[i] == pk_cpu_info_get());
    }
}

int main(void)
{
    test_concurrent_first_use();
    const pk_cpu_info *info = pk_cpu_info_get();
    test_matches_kernel(info);
    test_lookup(info);
    test_dispatcher_names();
    test_raw_values(info);
    return TEST_EXIT();
}
