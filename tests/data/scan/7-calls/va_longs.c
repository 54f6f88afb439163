/* Variadic helpers whose arguments all have one type, read back as int while
 * the callers pass size_t and long (ok_va.c has the fixed readers). */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

int total_len(int n, ...)
{
    va_list ap;
    int total = 0;

    va_start(ap, n);
    while (n-- > 0)
        total += va_arg(ap, int); /* want: PK702 */
    va_end(ap);
    return total;
}

long max_of(int n, ...)
{
    va_list ap;
    long best;

    va_start(ap, n);
    best = va_arg(ap, int); /* want: PK702 */
    while (--n > 0) {
        long v = va_arg(ap, int); /* want: PK702 */

        if (v > best)
            best = v;
    }
    va_end(ap);
    return best;
}

int name_widths(const char *a, const char *b)
{
    return total_len(2, strlen(a), strlen(b));
}

long worst(long x, long y, long z)
{
    return max_of(3, x, y, z);
}
