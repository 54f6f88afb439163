/* Minimal test helpers for the native unit tests: a failed check prints
 * file:line and the expression, and the test exits non-zero at the end. */
#ifndef PK_TEST_H
#define PK_TEST_H

#include <stdio.h>

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

#endif
