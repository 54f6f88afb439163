/* Tables allocated by a 2008 navigation engine: every size counts 4 bytes per
 * pointer or long. Where 4 is the size of an int or a uint32_t, or a count,
 * it is right on every target. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct node {
    struct node *next;
    int key;
};

char **argv_alloc(size_t argc)
{
    return malloc((argc + 1) * 4); /* want: PK401 */
}

long *counters_alloc(size_t n)
{
    return calloc(n, 4); /* want: PK401 */
}

struct node **list_grow(struct node **list, size_t n)
{
    return realloc(list, 2 * n * 4); /* want: PK401 */
}

void list_remove(struct node **list, size_t n, size_t i)
{
    memmove(&list[i], &list[i + 1], (n - i - 1) * 4); /* want: PK401 */
}

int *keys_alloc(size_t n)
{
    return malloc(n * 4); /* ok: PK401 */
}

void crc_table_clear(uint32_t *table, size_t n)
{
    memset(table, 0, n * 4); /* ok: PK401 */
}

void **quad_alloc(void)
{
    return calloc(4, sizeof(void *)); /* ok: PK401 */
}

long *counters_alloc_fixed(size_t n)
{
    return calloc(n, sizeof(long)); /* ok: PK401 */
}
