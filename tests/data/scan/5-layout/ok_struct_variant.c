/* An expression node from a 32-bit query engine: its value is a token
 * (char *) or a small integer, and the node's flags say which one is there.
 * The union is the struct's variant part: a member is read only after it was
 * written, so its growing to 8 bytes on LP64 changes nothing. */
#include <stdio.h>

#define INT_VALUE 0x1

struct expr {
    unsigned flags;
    union { /* ok: PK502 */
        char *token;
        int value;
    } u;
};

static void show(const struct expr *e)
{
    if (e->flags & INT_VALUE)
        printf("integer %d\n", e->u.value);
    else
        printf("token '%s'\n", e->u.token);
}

int main(void)
{
    char name[] = "price";
    struct expr token = {0, {name}};
    struct expr number = {INT_VALUE, {0}};

    number.u.value = 42;
    show(&token);
    show(&number);
    return 0;
}
