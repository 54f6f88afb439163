/* Deterministic mutation fuzz of the vDSO parser: thousands of damaged copies
 * of every image in tests/data/vdso, each in a buffer of exactly its size, so
 * AddressSanitizer (PK_SANITIZE=ON) stops on any read past the end. Whatever
 * the damage, pk_vdso_parse() must either succeed, and then every accessor
 * must work, or fail with a message; it must never crash or hang.
 *
 * Each image is fuzzed as it is (symbols via section headers) and with its
 * section headers removed (symbols via PT_DYNAMIC and the hash tables).
 *
 * Usage: test_vdso_fuzz DATA_DIR */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pk_test.h"
#include "vdso_elf.h"

static const char *const files[] = {
    "x86_64.so", "i686.so", "synthetic-aarch64.so", "synthetic-armhf.so", "synthetic-mips64-be.so", "synthetic-mips-be.so",
};

#define TRUNCATE_EVERY_UP_TO 1024 /* every length up to past the ELF and program headers */
#define RANDOM_TRUNCATIONS 500
#define BYTE_FLIPS 3000
#define FIELD_STOMPS 3000
#define STOMP_AND_CUT 500

typedef struct stats {
    unsigned long mutations, parsed, rejected;
} stats;

/* xorshift64*: the same mutations on every run and every machine. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

typedef struct image {
    const char *name;
    uint8_t *data;
    size_t size;
    bool big_endian, is64;
    uint64_t shoff, shend; /* the section header table, a second hot spot */
} image;

static uint64_t get_uint(const image *im, size_t off, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)im->data[off + (im->big_endian ? width - 1 - i : i)] << (8 * i);
    return v;
}

static image load(const char *dir, const char *name)
{
    image im = {.name = name};
    im.data = pk_test_read_file(dir, name, &im.size);
    im.big_endian = im.data[5] == 2;
    im.is64 = im.data[4] == 2;
    im.shoff = get_uint(&im, im.is64 ? 40 : 32, im.is64 ? 8 : 4);
    im.shend = im.shoff + get_uint(&im, im.is64 ? 60 : 48, 2) * get_uint(&im, im.is64 ? 58 : 46, 2);
    return im;
}

/* Parses one mutated copy and, on success, touches everything it yields. */
static void exercise(const uint8_t *bytes, size_t size, stats *st)
{
    static const uint8_t empty[1];
    uint8_t *copy = size ? malloc(size) : NULL;
    if (size)
        memcpy(copy, bytes, size);
    const uint8_t *data = size ? copy : empty;
    pk_vdso_image img;
    const char *err = NULL;
    st->mutations++;
    if (pk_vdso_parse(data, size, 0x7f0000000000ull, &img, &err) == 0) {
        st->parsed++;
        size_t cursor = 0, count = 0, chars = 0;
        pk_vdso_symbol s;
        while (pk_vdso_next_symbol(&img, &cursor, &s)) {
            count++;
            chars += strlen(s.name) + (s.version ? strlen(s.version) : 0);
            chars += strlen(pk_vdso_type_name(s.type)) + strlen(pk_vdso_bind_name(s.bind));
        }
        CHECK(count == img.exported);
        if (img.soname)
            chars += strlen(img.soname);
        pk_vdso_find_symbol(&img, "__vdso_clock_gettime", NULL, &s);
        pk_vdso_find_symbol(&img, "__vdso_gettimeofday", "LINUX_2.5", &s);
        (void)chars;
    } else {
        st->rejected++;
        CHECK(err && *err);
    }
    uint64_t extent;
    pk_vdso_image_extent(data, size, &extent, &err);
    free(copy);
}

/* A spot worth damaging: the headers and tables at the start, or the
 * section header table at the end; sometimes anywhere. */
static size_t hot_offset(const image *im)
{
    switch (below(3)) {
    case 0: return (size_t)below(im->size < 2048 ? im->size : 2048);
    case 1:
        if (im->shend > im->shoff && im->shend <= im->size)
            return (size_t)(im->shoff + below(im->shend - im->shoff));
        /* fall through */
    default: return (size_t)below(im->size);
    }
}

static uint64_t interesting_value(const image *im, unsigned width)
{
    uint64_t ones = width == 8 ? UINT64_MAX : (1ull << (8 * width)) - 1;
    uint64_t values[] = {0, ones, ones >> 1, (ones >> 1) + 1, im->size - 1, im->size, im->size + 1, 1, 2, rnd()};
    return values[below(sizeof values / sizeof values[0])] & ones;
}

static void stomp_field(const image *im, uint8_t *buf)
{
    static const unsigned widths[] = {1, 2, 4, 8};
    unsigned width = widths[below(4)];
    size_t off = hot_offset(im) & ~(size_t)(width - 1);
    if (off + width <= im->size)
        pk_test_put_uint(buf + off, width, interesting_value(im, width), im->big_endian);
}

static void fuzz_image(const image *im, stats *st)
{
    uint8_t *buf = malloc(im->size);
    for (size_t len = 0; len <= TRUNCATE_EVERY_UP_TO && len <= im->size; len++)
        exercise(im->data, len, st);
    for (int i = 0; i < RANDOM_TRUNCATIONS; i++)
        exercise(im->data, (size_t)below(im->size), st);
    for (int i = 0; i < BYTE_FLIPS; i++) {
        memcpy(buf, im->data, im->size);
        for (uint64_t n = 1 + below(8); n > 0; n--)
            buf[hot_offset(im)] ^= (uint8_t)(1 + below(255));
        exercise(buf, im->size, st);
    }
    for (int i = 0; i < FIELD_STOMPS; i++) {
        memcpy(buf, im->data, im->size);
        for (uint64_t n = 1 + below(3); n > 0; n--)
            stomp_field(im, buf);
        exercise(buf, im->size, st);
    }
    for (int i = 0; i < STOMP_AND_CUT; i++) {
        memcpy(buf, im->data, im->size);
        stomp_field(im, buf);
        exercise(buf, (size_t)below(im->size), st);
    }
    free(buf);
}

/* The same image with e_shoff = e_shnum = 0: the PT_DYNAMIC path. */
static image without_section_headers(const image *im)
{
    image copy = *im;
    copy.data = malloc(im->size);
    memcpy(copy.data, im->data, im->size);
    pk_test_put_uint(copy.data + (im->is64 ? 40 : 32), im->is64 ? 8 : 4, 0, im->big_endian);
    pk_test_put_uint(copy.data + (im->is64 ? 60 : 48), 2, 0, im->big_endian);
    copy.shoff = copy.shend = 0;
    return copy;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_vdso_fuzz DATA_DIR\n");
        return 2;
    }
    stats total = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        image im = load(argv[1], files[i]);
        image dyn = without_section_headers(&im);
        stats st = {0};
        rng_state = 0x9e3779b97f4a7c15ull ^ (i + 1);
        fuzz_image(&im, &st);
        fuzz_image(&dyn, &st);
        printf("%-24s %6lu mutations: %5lu parsed, %5lu rejected\n", files[i], st.mutations, st.parsed, st.rejected);
        total.mutations += st.mutations;
        total.parsed += st.parsed;
        total.rejected += st.rejected;
        free(im.data);
        free(dyn.data);
    }
    printf("%-24s %6lu mutations: %5lu parsed, %5lu rejected\n", "total", total.mutations, total.parsed,
           total.rejected);
    CHECK(total.parsed > 0 && total.rejected > 0);
    return TEST_EXIT();
}
