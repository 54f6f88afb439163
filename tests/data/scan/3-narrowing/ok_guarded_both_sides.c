/* An indentation stack from a 32-bit YAML-like parser: a new column is
 * pushed only when it is deeper than the current indent (an int, so the
 * column is above INT_MIN) and not past INT_MAX (else an error): bounded on
 * both sides, the ptrdiff_t column fits the int on either data model. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct parser {
    int indent;
    int error;
};

static int roll_indent(struct parser *p, ptrdiff_t column)
{
    if (p->indent < column) {
        if (column > INT_MAX) {
            p->error = 1;
            return 0;
        }
        p->indent = column; /* ok: PK301 */
    }
    return 1;
}

int main(void)
{
    struct parser p = {-1, 0};
    const char line[] = "        key: value";
    const char *first = line;

    while (*first == ' ')
        first++;
    roll_indent(&p, first - line);
    roll_indent(&p, 4); /* not deeper: the indent stays */
    printf("indent %d, error %d\n", p.indent, p.error);
    return 0;
}
