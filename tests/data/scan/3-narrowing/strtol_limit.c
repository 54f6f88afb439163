/* A CAN gateway's option reader: numbers go through strtol and are kept in
 * int. The reader reports whether what it stored is what it parsed. */
#include <stdio.h>
#include <stdlib.h>

#define NOPTS 3

int main(void)
{
    const char *opts[NOPTS] = {"1500", "-1", "4294967296"};
    int i;

    for (i = 0; i < NOPTS; i++) {
        int limit = strtol(opts[i], NULL, 0); /* want: PK301 */
        long parsed = strtol(opts[i], NULL, 0); /* ok: PK301 */

        printf("%s: stored %s\n", opts[i], limit == parsed ? "as parsed" : "truncated");
    }
    return 0;
}
