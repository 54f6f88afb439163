/* A counter summing helper from a 32-bit logger: it reads every argument as
 * an int and keeps the total in a long. Every call passes ints (a short and
 * a char arrive as ints), so an int is what va_arg meets, and widening it
 * afterwards is right on both. */
#include <stdarg.h>
#include <stdio.h>

static long sum_counts(int n, ...)
{
    va_list ap;
    long total = 0;

    va_start(ap, n);
    while (n-- > 0) {
        long v = va_arg(ap, int); /* ok: PK702 */

        total += v;
    }
    va_end(ap);
    return total;
}

int main(void)
{
    short dropped = 3;
    char retries = 2;
    int frames = 1000;

    printf("events: %ld\n", sum_counts(3, frames, dropped, retries));
    printf("frames only: %ld\n", sum_counts(1, frames));
    return 0;
}
