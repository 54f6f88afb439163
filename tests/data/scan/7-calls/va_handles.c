/* A registry lookup keyed by an object's address: callers pass the address,
 * and the variadic helper reads it back as an int, as its 32-bit author read
 * every argument. The fixed helper reads a pointer. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define NOBJ 3

static void *registry[NOBJ];

static int find_object(int nkeys, ...)
{
    va_list ap;
    int key, i, found = -1;

    va_start(ap, nkeys);
    key = va_arg(ap, int); /* want: PK702 */
    va_end(ap);
    for (i = 0; i < NOBJ; i++)
        if ((intptr_t)registry[i] == key)
            found = i;
    return found;
}

static int find_object_fixed(int nkeys, ...)
{
    va_list ap;
    void *key;
    int i, found = -1;

    va_start(ap, nkeys);
    key = va_arg(ap, void *); /* ok: PK702 */
    va_end(ap);
    for (i = 0; i < NOBJ; i++)
        if (registry[i] == key)
            found = i;
    return found;
}

int main(void)
{
    int a, b, c;

    registry[0] = &a;
    registry[1] = &b;
    registry[2] = &c;
    printf("b is object %d\n", find_object(1, &b));
    printf("b is object %d (fixed)\n", find_object_fixed(1, &b));
    return 0;
}
