/* Variadic helpers whose arguments all have one type, read back as int while
 * the callers pass size_t and long. Arguments of type short or char arrive
 * as int on every target, so reading int is right for them. */
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

int sum_small(int n, ...)
{
    va_list ap;
    int total = 0;

    va_start(ap, n);
    while (n-- > 0)
        total += va_arg(ap, int); /* ok: PK702 */
    va_end(ap);
    return total;
}

long max_of_fixed(int n, ...)
{
    va_list ap;
    long best;

    va_start(ap, n);
    best = va_arg(ap, long); /* ok: PK702 */
    while (--n > 0) {
        long v = va_arg(ap, long); /* ok: PK702 */

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

int trims(short left, signed char right)
{
    return sum_small(2, left, right);
}

long worst_fixed(long x, long y)
{
    return max_of_fixed(2, x, y);
}
