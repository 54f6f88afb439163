/* scan-args: --to LLP64 */
/* The same reports built for Win64: long stays 32 bits, size_t and pointer
 * differences grow to 64. */
#include <stdio.h>
#include <string.h>

void report(const char *name, const char *start, const char *end, long errors)
{
    printf("%s: %lu bytes\n", name, strlen(name)); /* want: PK201 */
    printf("%s: span %ld\n", name, end - start); /* want: PK201 */
    printf("%s: %d errors\n", name, errors); /* ok: PK201 */
    printf("%s: %ld errors\n", name, errors); /* ok: PK201 */
    printf("%s: %zu bytes, span %td\n", name, strlen(name), end - start); /* ok: PK201 */
}
