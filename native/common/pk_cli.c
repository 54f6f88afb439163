#include "pk_cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void pk_put_escaped(FILE *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\n')
            fputs("\\n", out);
        else if (*c == '\t')
            fputs("\\t", out);
        else if (*c == '\r')
            fputs("\\r", out);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(out, "\\x%02x", *c);
        else
            fputc(*c, out);
    }
}

int pk_fail(int exit_code, const char *cmd, const char *fmt, ...)
{
    /* Formatted first, then escaped: a value the user typed (a path with a
     * newline, an escape sequence) can neither split the one line the host
     * reads nor act on the terminal. */
    char message[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fprintf(stderr, "portkit-target %s: ", cmd);
    pk_put_escaped(stderr, message);
    if (n >= (int)sizeof message)
        fputs("...", stderr);
    fputc('\n', stderr);
    return exit_code;
}

bool pk_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s || v < min || v > max)
        return false;
    *out = v;
    return true;
}

uint64_t pk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
