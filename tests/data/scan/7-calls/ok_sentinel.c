/* Lists ended with a real null pointer, and a plain 0 where it is an int
 * argument rather than a terminator (open's mode, a printf value). */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static size_t joined_len(const char *first, ...) __attribute__((sentinel));

static size_t joined_len(const char *first, ...)
{
    va_list ap;
    const char *w;
    size_t len = 0;

    va_start(ap, first);
    for (w = first; w != NULL; w = va_arg(ap, const char *))
        len += strlen(w);
    va_end(ap);
    return len;
}

int main(void)
{
    int fd = open("/nonexistent/portkit", O_RDONLY, 0); /* ok: PK703 */

    printf("joined: %zu\n", joined_len("a", "b", "c", "d", "e", "f", "g", "h", "i", "jk", (char *)NULL)); /* ok: PK703 */
    printf("joined: %zu\n", joined_len("x", "yz", (void *)0)); /* ok: PK703 */
    printf("open failed: %d, zero is %d\n", fd < 0, 0); /* ok: PK703 */
    return 0;
}
