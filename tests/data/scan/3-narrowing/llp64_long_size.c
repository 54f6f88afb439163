/* scan-args: --to LLP64 */
/* Linux-style code that keeps sizes in long: right on LP64, where long is 64
 * bits, narrowing on Win64, where it stays 32. What was long already on ILP32
 * keeps its width there. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

long text_len(const char *s)
{
    return strlen(s); /* want: PK301 */
}

unsigned long span(const char *a, const char *b)
{
    unsigned long n = b - a; /* want: PK301 */

    return n;
}

long file_pos(FILE *f)
{
    long pos = ftell(f); /* ok: PK301 */

    return pos;
}

int small_count(long n)
{
    int c = n; /* ok: PK301 */

    return c;
}

size_t text_len_fixed(const char *s)
{
    return strlen(s); /* ok: PK301 */
}
