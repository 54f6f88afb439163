/* An expression tree from a 32-bit query engine, duplicated into one block of
 * bytes (an arena) with memcpy. The node holds pointers, so its bytes never
 * leave the process: a copy in memory, whatever its size on LP64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expr {
    int op;
    long value;
    struct expr *left, *right;
    char *token;
};

static struct expr *dup_expr(const struct expr *e, unsigned char *arena)
{
    memcpy(arena, e, sizeof *e); /* ok: PK501 */
    return (struct expr *)arena;
}

int main(void)
{
    char token[] = "price";
    struct expr leaf = {1, 42, NULL, NULL, token};
    unsigned char *arena = malloc(sizeof leaf);
    struct expr *copy = dup_expr(&leaf, arena);

    printf("op %d value %ld token %s\n", copy->op, copy->value, copy->token);
    free(arena);
    return 0;
}
