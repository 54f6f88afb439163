/* Minimal test helpers for the native unit tests: a failed check prints
 * file:line and the expression, and the test exits non-zero at the end. */
#ifndef PK_TEST_H
#define PK_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pk_test_failures;

#define CHECK(expr)                                                          \
    do {                                                                     \
        if (!(expr)) {                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
                    #expr);                                                  \
            pk_test_failures++;                                              \
        }                                                                    \
    } while (0)

/* Checks that the text got is want, showing both when it is not. */
#define CHECK_TEXT(got, want)                                                     \
    do {                                                                          \
        CHECK(!strcmp((got), (want)));                                            \
        if (strcmp((got), (want)))                                                \
            fprintf(stderr, "  want: %s\n  got:  %s\n", (want), (got));            \
    } while (0)

/* A command's option parse: its exit code, and what it wrote to stderr. */
typedef int pk_test_parse(int argc, char **argv, const char **err);

/* The parse of argv fails with exit 2 (bad usage) and exactly the line
 * "portkit-target CMD: LINE". */
static inline void pk_test_expect_usage(pk_test_parse *parse, const char *cmd, const char *line, int argc, char **argv)
{
    char want[512];
    const char *got;
    snprintf(want, sizeof want, "portkit-target %s: %s\n", cmd, line);
    CHECK(parse(argc, argv, &got) == 2);
    CHECK_TEXT(got, want);
}

#define TEST_EXIT() (pk_test_failures ? (fprintf(stderr, "%d check(s) failed\n", pk_test_failures), 1) : 0)

/* DIR/NAME read whole into a malloc'd buffer; a missing fixture ends the
 * test (exit 2), it never passes silently. */
static inline uint8_t *pk_test_read_file(const char *dir, const char *name, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0)
        if ((len += got) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    if (!data) {
        fprintf(stderr, "out of memory reading %s\n", path);
        exit(2);
    }
    *size = len;
    return data;
}

/* What the code between pk_test_capture_start() and pk_test_captured() wrote to
 * a stream (stdout, stderr): its descriptor points at a temporary file
 * meanwhile. */
typedef struct pk_test_capture {
    FILE *stream, *file;
    int saved_fd;
    char text[4096]; /* NUL-terminated, cut at the size */
} pk_test_capture;

static inline void pk_test_capture_start(pk_test_capture *c, FILE *stream)
{
    fflush(stream);
    c->stream = stream;
    c->file = tmpfile();
    c->saved_fd = dup(fileno(stream));
    dup2(fileno(c->file), fileno(stream));
}

static inline const char *pk_test_captured(pk_test_capture *c)
{
    fflush(c->stream);
    dup2(c->saved_fd, fileno(c->stream));
    close(c->saved_fd);
    rewind(c->file);
    size_t n = fread(c->text, 1, sizeof c->text - 1, c->file);
    c->text[n] = '\0';
    fclose(c->file);
    return c->text;
}

/* Writes an integer of `width` bytes in the given byte order (ELF fixtures). */
static inline void pk_test_put_uint(uint8_t *p, unsigned width, uint64_t v, bool big_endian)
{
    for (unsigned i = 0; i < width; i++)
        p[big_endian ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Reads one back: an image's fields in its own byte order, whatever the host's. */
static inline uint64_t pk_test_get_uint(const uint8_t *p, unsigned width, bool big_endian)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)p[big_endian ? width - 1 - i : i] << (8 * i);
    return v;
}

#endif
