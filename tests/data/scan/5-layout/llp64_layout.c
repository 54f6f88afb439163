/* scan-args: --to LLP64 */
/* Layouts seen from Win64: long keeps its 4 bytes, pointers and size_t grow,
 * so an overlay or a record changes only where a pointer or size_t is in it. */
#include <stddef.h>
#include <stdio.h>

union tagged {
    long value;
    void *ptr; /* want: PK502 */
};

typedef union { /* ok: PK502 */
    double d;
    long l[2];
} long_union_t;

union slot { /* ok: PK502 */
    size_t len;
    void *ptr;
};

struct counters {
    long frames;
    int drops;
};

struct owner {
    long id;
    char *name;
};

void save(FILE *f, const struct counters *c, const struct owner *o)
{
    fwrite(c, sizeof *c, 1, f); /* ok: PK501 */
    fwrite(o, sizeof *o, 1, f); /* want: PK501 */
}
