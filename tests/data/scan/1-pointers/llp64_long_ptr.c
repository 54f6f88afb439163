/* scan-args: --to LLP64 */
/* Linux-style code built for Win64: long stays 32 bits while pointers grow, so
 * every address kept in a long or an unsigned long loses its upper half. */
#include <stdint.h>
#include <stddef.h>

typedef unsigned long ulong_t;

struct obj {
    int refs;
    char name[12];
};

ulong_t obj_key(const struct obj *o)
{
    return (ulong_t)o; /* want: PK101 */
}

struct obj *obj_from_key(ulong_t key)
{
    return (struct obj *)key; /* want: PK102 */
}

long align_up(const void *p, long align)
{
    long a = (long)p; /* want: PK101 */

    return (a + align - 1) & -align;
}

uintptr_t obj_key_fixed(const struct obj *o)
{
    return (uintptr_t)o; /* ok: PK101 */
}

struct obj *obj_from_key_fixed(uintptr_t key)
{
    return (struct obj *)key; /* ok: PK102 */
}

size_t obj_offset(const struct obj *base, const struct obj *o)
{
    return (size_t)o - (size_t)base; /* ok: PK101 */
}

long long obj_as_number(const struct obj *o)
{
    return (long long)o; /* ok: PK101 */
}
