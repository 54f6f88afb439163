/* Every call has a declaration in scope: from the headers, a prototype, or an
 * old-style declaration that gives the return type if not the parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *xstrdup();
static int count_fields(const char *s, int sep);

int main(void)
{
    char *copy = xstrdup("a,b,c"); /* ok: PK701 */
    char *pool = malloc(1 << 20); /* ok: PK701 PK404 */
    char *field = strtok(copy, ","); /* ok: PK701 */

    printf("first field in place: %d\n", field == copy);
    printf("fields: %d\n", count_fields("a,b,c", ',')); /* ok: PK701 */
    printf("pool: %d\n", pool != NULL);
    free(pool);
    free(copy);
    return 0;
}

char *xstrdup(const char *s)
{
    char *p = malloc(strlen(s) + 1);

    if (p != NULL)
        strcpy(p, s);
    return p;
}

static int count_fields(const char *s, int sep)
{
    int n = 1;

    for (; *s != '\0'; s++)
        n += *s == sep;
    return n;
}
