/* va_arg reading what the callers pass: int for promoted short and char, long
 * for long, size_t for strlen results, a pointer for a pointer (also through
 * a typedef). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int sum_small(int n, ...)
{
    va_list ap;
    int total = 0;

    va_start(ap, n);
    while (n-- > 0)
        total += va_arg(ap, int); /* ok: PK702 */
    va_end(ap);
    return total;
}

static long max_of(int n, ...)
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

static size_t total_len(int n, ...)
{
    va_list ap;
    size_t total = 0;

    va_start(ap, n);
    while (n-- > 0)
        total += va_arg(ap, size_t); /* ok: PK702 */
    va_end(ap);
    return total;
}

static int find(const void *want, int n, ...)
{
    va_list ap;
    int i, found = -1;

    va_start(ap, n);
    for (i = 0; i < n; i++)
        if (va_arg(ap, const void *) == want) /* ok: PK702 */
            found = i;
    va_end(ap);
    return found;
}

typedef int sock_t;

/* A pointer to a typedef read back as itself (curl's getinfo does this). */
static int first_socket(int n, ...)
{
    va_list ap;
    sock_t *slot;

    va_start(ap, n);
    slot = va_arg(ap, sock_t *); /* ok: PK102 PK702 */
    va_end(ap);
    return *slot;
}

int main(void)
{
    sock_t fd = 4;

    short left = -3;
    signed char right = 7;
    int x, y, z;

    printf("trim sum %d\n", sum_small(2, left, right));
    printf("worst %ld\n", max_of(3, -5L, 12L, 7L));
    printf("names %zu bytes\n", total_len(2, strlen("tuner"), strlen("nav")));
    printf("y is argument %d\n", find(&y, 3, &x, &y, &z));
    printf("socket %d\n", first_socket(1, &fd));
    return 0;
}
