/* A GLib-style helper taking a NULL-terminated list of strings. The second
 * call ends its list with a plain 0: an int, 4 bytes, where the callee reads
 * an 8-byte pointer. With more than eight arguments the terminator goes on
 * the stack, and the upper half of its slot keeps what the first call left. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define MAX_WORDS 16

static int count_words(const char *first, ...) __attribute__((sentinel));

static int count_words(const char *first, ...)
{
    va_list ap;
    const char *w;
    int n = 0;

    va_start(ap, first);
    for (w = first; w != NULL && n < MAX_WORDS; w = va_arg(ap, const char *))
        n++;
    va_end(ap);
    return n;
}

int main(void)
{
    char spare[] = "spare";
    int n1 = count_words("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", spare, (char *)NULL); /* ok: PK703 */
    int n2 = count_words("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", 0); /* want: PK703 */

    printf("%d words, then %d words\n", n1, n2);
    return 0;
}
