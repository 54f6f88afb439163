/* CRC32C: published vectors, every implementation against the portable one,
 * extend and combine properties.
 *
 *   test_crc32c [--quick] [--expect-impl NAME] [--expect-available NAME]...
 *
 * --quick: skip the 64 MiB buffers (for the extra runs under emulators).
 * --expect-impl: pk_crc32c_implementation() must start with NAME (checks the
 * PORTKIT_CRC32C override); --expect-available: NAME must be usable here
 * (so a CPU-specific run cannot pass by silently testing only the fallback). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pk_test.h"
#include "portkit/crc32c.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rng() >> 32);
}

/* RFC 3720 appendix B.4 lists these CRCs in wire (little-endian) byte order;
 * the values below are the same CRCs as numbers. */
static void test_vectors(const char *name, pk_crc32c_fn crc)
{
    uint8_t buf[48];
    int before = pk_test_failures;

    CHECK(crc(0, "123456789", 9) == 0xE3069283u);
    CHECK(crc(0, "", 0) == 0);
    CHECK(crc(0, NULL, 0) == 0);
    CHECK(crc(0x12345678u, NULL, 0) == 0x12345678u);

    memset(buf, 0, 32);
    CHECK(crc(0, buf, 32) == 0x8A9136AAu);
    memset(buf, 0xFF, 32);
    CHECK(crc(0, buf, 32) == 0x62A8AB43u);
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)i;
    CHECK(crc(0, buf, 32) == 0x46DD794Eu);
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)(31 - i);
    CHECK(crc(0, buf, 32) == 0x113FDB5Cu);

    static const uint8_t iscsi_read_pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    CHECK(crc(0, iscsi_read_pdu, sizeof iscsi_read_pdu) == 0xD9963A56u);

    /* Extend form: "123456789" in two calls. */
    CHECK(crc(crc(0, "1234", 4), "56789", 5) == 0xE3069283u);
    if (pk_test_failures != before)
        fprintf(stderr, "  (in implementation %s)\n", name);
}

/* Every length 0..4096 at every misalignment 0..63 (a random one per
 * length), plus random initial CRCs, against the portable implementation. */
static void test_against_portable(const char *name, pk_crc32c_fn crc, pk_crc32c_fn ref,
                                  const uint8_t *data)
{
    int bad = 0;
    for (size_t len = 0; len <= 4096; len++) {
        size_t off = (size_t)(rng() % 64);
        uint32_t init = (len & 1) ? (uint32_t)rng() : 0;
        uint32_t want = ref(init, data + off, len);
        uint32_t got = crc(init, data + off, len);
        if (got != want && bad++ < 5)
            fprintf(stderr, "%s: len %zu off %zu init %08x: %08x, portable %08x\n", name,
                    len, off, (unsigned)init, (unsigned)got, (unsigned)want);
    }
    CHECK(bad == 0);
}

static void test_large(const char *name, pk_crc32c_fn crc, pk_crc32c_fn ref,
                       const uint8_t *data, size_t len)
{
    for (size_t off = 0; off < 2; off++) {
        uint32_t want = ref(0, data + off, len - off);
        uint32_t got = crc(0, data + off, len - off);
        if (got != want)
            fprintf(stderr, "%s: %zu bytes at offset %zu: %08x, portable %08x\n", name,
                    len - off, off, (unsigned)got, (unsigned)want);
        CHECK(got == want);
    }
}

/* Random lengths up to max bytes at random offsets: the large-buffer paths
 * (block and region splits) with every kind of remainder. */
static void test_random_lengths(const char *name, pk_crc32c_fn crc, pk_crc32c_fn ref,
                                const uint8_t *data, size_t max)
{
    int bad = 0;
    for (int i = 0; i < 40; i++) {
        size_t len = (size_t)(rng() % max), off = (size_t)(rng() % 64);
        uint32_t want = ref(0, data + off, len), got = crc(0, data + off, len);
        if (got != want && bad++ < 5)
            fprintf(stderr, "%s: len %zu off %zu: %08x, portable %08x\n", name, len, off,
                    (unsigned)got, (unsigned)want);
    }
    CHECK(bad == 0);
}

static void test_combine(const uint8_t *data, size_t size)
{
    /* Every split of the first 300 bytes, then random splits of the rest. */
    uint32_t whole = pk_crc32c(0, data, 300);
    for (size_t cut = 0; cut <= 300; cut++) {
        uint32_t a = pk_crc32c(0, data, cut), b = pk_crc32c(0, data + cut, 300 - cut);
        CHECK(pk_crc32c_combine(a, b, 300 - cut) == whole);
        CHECK(pk_crc32c(a, data + cut, 300 - cut) == whole);
    }
    for (int i = 0; i < 50; i++) {
        size_t n = (size_t)(rng() % size), cut = (size_t)(rng() % (n + 1));
        uint32_t a = pk_crc32c(0, data, cut), b = pk_crc32c(0, data + cut, n - cut);
        CHECK(pk_crc32c_combine(a, b, n - cut) == pk_crc32c(0, data, n));
    }
    CHECK(pk_crc32c_combine(0x89ABCDEFu, 0, 0) == 0x89ABCDEFu);

    /* Huge len2 without the data: B = 2^k zero bytes. crc(zeros(2n)) is
     * combine(crc(zeros(n)), crc(zeros(n)), n), so doubling from a measured
     * 1 KiB run reaches 2^40 and the SIZE_MAX shift must stay consistent. */
    static uint8_t zeros[1024];
    uint32_t z = pk_crc32c(0, zeros, sizeof zeros);
    uint32_t z2 = pk_crc32c(z, zeros, sizeof zeros);
    CHECK(pk_crc32c_combine(z, z, sizeof zeros) == z2);
    size_t n = sizeof zeros;
    uint8_t *mib = calloc(1, (size_t)1 << 20);
    for (int k = 0; k < 30; k++, n *= 2) {
        if (n == (size_t)1 << 20 && mib)
            CHECK(z == pk_crc32c(0, mib, n)); /* doubling agrees with the data */
        z = pk_crc32c_combine(z, z, n);
    }
    free(mib);
    uint32_t one = pk_crc32c(0, "x", 1);
    uint32_t lhs = pk_crc32c_combine(pk_crc32c_combine(one, z, n), z, n);
    uint32_t rhs = pk_crc32c_combine(one, pk_crc32c_combine(z, z, n), 2 * n);
    CHECK(lhs == rhs);
    /* Associativity at the top of size_t. */
    size_t big = (size_t)-1, half = big / 2;
    CHECK(pk_crc32c_combine(pk_crc32c_combine(one, 0, half), 0, big - half) ==
          pk_crc32c_combine(one, 0, big));
}

/* The first calls race to pick the implementation: all must get it right. */
static void *first_call_thread(void *arg)
{
    uint32_t *out = arg;
    *out = pk_crc32c(0, "123456789", 9);
    return NULL;
}

static void test_concurrent_first_calls(void)
{
    pthread_t threads[4];
    uint32_t results[4] = { 0 };
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&threads[i], NULL, first_call_thread, &results[i]) == 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(results[i] == 0xE3069283u);
    }
}

int main(int argc, char **argv)
{
    test_concurrent_first_calls(); /* before anything else initializes */
    bool quick = false;
    for (int i = 1; i < argc; i += 2) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
            i--;
        } else if (i + 1 == argc) {
            fprintf(stderr, "%s: %s needs an argument\n", argv[0], argv[i]);
            return 2;
        } else if (strcmp(argv[i], "--expect-impl") == 0) {
            const char *impl = pk_crc32c_implementation();
            if (strncmp(impl, argv[i + 1], strlen(argv[i + 1])) != 0)
                fprintf(stderr, "implementation is \"%s\", expected \"%s\"\n", impl,
                        argv[i + 1]);
            CHECK(strncmp(impl, argv[i + 1], strlen(argv[i + 1])) == 0);
        } else if (strcmp(argv[i], "--expect-available") == 0) {
            if (!pk_crc32c_get(argv[i + 1]))
                fprintf(stderr, "implementation %s is not available\n", argv[i + 1]);
            CHECK(pk_crc32c_get(argv[i + 1]) != NULL);
        } else {
            fprintf(stderr, "usage: %s [--quick] [--expect-impl NAME] [--expect-available NAME]\n",
                    argv[0]);
            return 2;
        }
    }
    printf("selected: %s\navailable:", pk_crc32c_implementation());
    const char *const *names = pk_crc32c_implementations();
    for (const char *const *n = names; *n; n++)
        printf(" %s", *n);
    printf("\n");

    size_t large = quick ? (size_t)4 << 20 : (size_t)64 << 20;
    uint8_t *data = malloc(large + 64 + 7);
    if (!data)
        return 2;
    fill_random(data, large + 64 + 7);

    pk_crc32c_fn ref = pk_crc32c_get("portable");
    CHECK(ref != NULL);
    test_vectors("pk_crc32c", pk_crc32c);
    for (const char *const *n = names; *n; n++) {
        pk_crc32c_fn crc = pk_crc32c_get(*n);
        test_vectors(*n, crc);
        test_against_portable(*n, crc, ref, data);
        test_large(*n, crc, ref, data + 3, (size_t)1 << 20);
        test_random_lengths(*n, crc, ref, data, (size_t)3 << 20);
        if (!quick)
            test_large(*n, crc, ref, data + 5, large + 7);
        printf("%s: checked\n", *n);
    }
    test_against_portable("pk_crc32c", pk_crc32c, ref, data);
    test_combine(data, (size_t)1 << 20);
    CHECK(pk_crc32c_get("no-such-implementation") == NULL);
    CHECK(pk_crc32c_get(NULL) == NULL);
    free(data);
    return TEST_EXIT();
}
