/* Minimal test helpers for the native unit tests: a failed check prints
 * file:line and the expression, and the test exits non-zero at the end. */
#ifndef PK_TEST_H
#define PK_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* What the code between pk_test_capture_stderr() and pk_test_captured()
 * wrote to stderr (the text of the last capture, NUL-terminated). */
static FILE *pk_test_capture_file;
static int pk_test_saved_stderr = -1;

static inline void pk_test_capture_stderr(void)
{
    fflush(stderr);
    pk_test_capture_file = tmpfile();
    pk_test_saved_stderr = dup(STDERR_FILENO);
    dup2(fileno(pk_test_capture_file), STDERR_FILENO);
}

static inline const char *pk_test_captured(void)
{
    static char text[1024];
    fflush(stderr);
    dup2(pk_test_saved_stderr, STDERR_FILENO);
    close(pk_test_saved_stderr);
    rewind(pk_test_capture_file);
    size_t n = fread(text, 1, sizeof text - 1, pk_test_capture_file);
    text[n] = '\0';
    fclose(pk_test_capture_file);
    return text;
}

/* Writes an integer of `width` bytes in the given byte order (ELF fixtures). */
static inline void pk_test_put_uint(uint8_t *p, unsigned width, uint64_t v, bool big_endian)
{
    for (unsigned i = 0; i < width; i++)
        p[big_endian ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

#endif
