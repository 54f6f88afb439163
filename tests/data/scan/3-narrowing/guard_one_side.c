/* A seek helper from a 32-bit media player: the offset is checked against
 * INT_MAX only, so a large negative offset (a rewind past the start,
 * -(SIZE_MAX / 2) here: INT_MIN + 1 at home) still goes into the int. It
 * fits on ILP32 and loses its upper bits on LP64. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct seek {
    int offset;
};

static int set_offset(struct seek *s, ptrdiff_t offset)
{
    if (offset > INT_MAX)
        return -1;
    s->offset = offset; /* want: PK301 */
    return 0;
}

int main(void)
{
    struct seek s = {0};

    set_offset(&s, -(ptrdiff_t)(((size_t)-1) / 2));
    printf("offset %d, before the start: %d\n", s.offset, s.offset < 0);
    return 0;
}
