/* Conventions every agent subcommand follows: exit codes, one-line errors,
 * checked number parsing. */
#ifndef PK_CLI_H
#define PK_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes shared with the host (docs/architecture.md, "Conventions"). */
enum {
    PK_EXIT_OK = 0,       /* success, nothing at or above --fail-on */
    PK_EXIT_FINDINGS = 1, /* a check found a problem */
    PK_EXIT_USAGE = 2,    /* bad usage or bad input */
    PK_EXIT_ENV = 3,      /* the environment cannot do it */
};

/* Prints "portkit-target CMD: MESSAGE" as one line on stderr (control
 * characters in MESSAGE escaped) and returns the given exit code, so callers
 * can write `return pk_fail(...)`. */
int pk_fail(int exit_code, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes text with each control byte as \n, \t, \r or \xNN; other
 * bytes (UTF-8 included) as they are. */
void pk_put_escaped(FILE *out, const char *text);

/* Parses a whole decimal string into [min, max]. False on anything else
 * (empty, trailing junk, overflow, out of range). */
bool pk_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* Monotonic nanoseconds from the libc clock_gettime. */
uint64_t pk_now_ns(void);

#endif
