/* Throughput of every CRC32C implementation this CPU offers, side by side.
 *
 *   bench_impls [-r ROUNDS] [SIZE...]      sizes in bytes (k/m suffixes ok)
 *
 * For each size the implementations take turns on the same buffer, round
 * after round; each sample repeats the call until ~2 ms have passed, and the
 * median (and min/max) over rounds is printed in GB/s (1e9 bytes/s). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portkit/crc32c.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static size_t parse_size(const char *s)
{
    char *end;
    size_t v = strtoull(s, &end, 10);
    if (*end == 'k' || *end == 'K')
        v <<= 10;
    else if (*end == 'm' || *end == 'M')
        v <<= 20;
    return v;
}

static volatile uint32_t sink;

/* The physical limit: read every byte once, xor-ing 32-byte words into four
 * independent accumulators (AVX2 loads where the CPU has them). */
#if defined(__x86_64__)
#include <immintrin.h>
__attribute__((target("avx2"))) static uint32_t memread_avx2(uint32_t crc, const void *buf,
                                                            size_t len)
{
    const uint8_t *p = buf;
    __m256i a = _mm256_set1_epi32((int)crc), b = a, c = a, d = a;
    size_t i = 0;
    for (; i + 128 <= len; i += 128) {
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(const void *)(p + i)));
        b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32)));
        c = _mm256_xor_si256(c, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 64)));
        d = _mm256_xor_si256(d, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 96)));
    }
    a = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
    uint32_t r = (uint32_t)_mm256_extract_epi32(a, 0) ^ (uint32_t)_mm256_extract_epi32(a, 7);
    for (; i < len; i++)
        r ^= p[i];
    return r;
}
#endif

static uint32_t memread(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
        return memread_avx2(crc, buf, len);
#endif
    const uint8_t *p = buf;
    uint64_t a = crc, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        a ^= w[0];
        b ^= w[1];
        c ^= w[2];
        d ^= w[3];
    }
    for (; i < len; i++)
        a ^= p[i];
    return (uint32_t)(a ^ b ^ c ^ d);
}

/* Seconds per call, timing enough calls to span ~2 ms. */
static double time_calls(pk_crc32c_fn fn, const uint8_t *buf, size_t len, long *calls)
{
    if (*calls == 0) {
        long n = 1;
        for (;;) {
            double t = now();
            for (long i = 0; i < n; i++)
                sink = fn(sink, buf, len);
            if (now() - t > 2e-3 || n > (1L << 30))
                break;
            n *= 2;
        }
        *calls = n;
    }
    double t = now();
    uint32_t c = sink;
    for (long i = 0; i < *calls; i++)
        c = fn(c, buf, len);
    sink = c;
    return (now() - t) / (double)*calls;
}

int main(int argc, char **argv)
{
    int rounds = 15, first = 1;
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        rounds = atoi(argv[2]);
        first = 3;
    }
    size_t default_sizes[] = { 64, 256, 1024, 4096, 16384, 65536, 1 << 20, 64 << 20 };
    size_t nsizes = argc > first ? (size_t)(argc - first) : sizeof default_sizes / sizeof(size_t);
    size_t sizes[64];
    for (size_t i = 0; i < nsizes && i < 64; i++)
        sizes[i] = argc > first ? parse_size(argv[first + i]) : default_sizes[i];

    const char *names[32];
    pk_crc32c_fn fns[32];
    size_t nimpl = 0;
    for (const char *const *n = pk_crc32c_implementations(); *n && nimpl < 31; n++, nimpl++) {
        names[nimpl] = *n;
        fns[nimpl] = pk_crc32c_get(*n);
    }
    names[nimpl] = "memread";
    fns[nimpl++] = memread;
    printf("selected: %s\n%10s", pk_crc32c_implementation(), "bytes");
    for (size_t j = 0; j < nimpl; j++)
        printf(" %22s", names[j]);
    printf("\n");

    for (size_t s = 0; s < nsizes; s++) {
        size_t len = sizes[s];
        uint8_t *buf = malloc(len + 64);
        for (size_t i = 0; i < len + 64; i++)
            buf[i] = (uint8_t)(i * 131 + 7);
        double *secs = calloc(nimpl * (size_t)rounds, sizeof(double));
        long *calls = calloc(nimpl, sizeof(long));
        for (int r = 0; r < rounds; r++)
            for (size_t j = 0; j < nimpl; j++)
                secs[j * (size_t)rounds + (size_t)r] =
                    time_calls(fns[j], buf, len, &calls[j]);
        printf("%10zu", len);
        for (size_t j = 0; j < nimpl; j++) {
            double *v = secs + j * (size_t)rounds;
            qsort(v, (size_t)rounds, sizeof(double), cmp_double);
            printf("   %6.2f [%5.2f-%5.2f]", (double)len / v[rounds / 2] / 1e9,
                   (double)len / v[rounds - 1] / 1e9, (double)len / v[0] / 1e9);
        }
        printf("\n");
        free(buf);
        free(secs);
        free(calls);
    }
    return 0;
}
