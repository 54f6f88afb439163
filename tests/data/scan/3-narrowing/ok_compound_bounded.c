/* Size bookkeeping from a 32-bit embedded database: the length of a token
 * is kept to 30 bits by a mask before it is added to an int total, so the
 * long arithmetic of += gives the same int on both data models. */
#include <stdio.h>
#include <string.h>

#define STRLEN30(s) (0x3fffffff & strlen(s))

static int node_size(const char *token)
{
    int bytes = 48;

    bytes += STRLEN30(token) + 1; /* ok: PK301 */
    bytes += strlen(token) % 64; /* ok: PK301 */
    return bytes;
}

int main(void)
{
    printf("node of 'select': %d bytes\n", node_size("select"));
    return 0;
}
