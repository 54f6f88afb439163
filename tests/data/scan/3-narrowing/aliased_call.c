/* A 32-bit XML library's symbol aliases (its elfgcchack.h): every exported
 * function is called through a #define that renames it (or, in its sort
 * template, makes the name). A narrowing in the
 * arguments of such a call is at the call, not in the #define. The length of
 * a name is a pointer difference; "unlimited" end pointers make it exceed an
 * int on LP64 only. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static int lookup_internal(const char *name, int len)
{
    return len > 0 ? name[0] : -1;
}

#define lookup lookup_internal
#define SORT_NAME(x) sort_##x
#define SORT_CHECK SORT_NAME(check)

static int sort_check(const char *name, int len)
{
    return len > 0 && name[0] == 'e';
}

int main(void)
{
    static const char names[] = "element";
    const char *far = (const char *)(uintptr_t)(SIZE_MAX / 2);
    ptrdiff_t spread = far - (const char *)0;

    printf("first %d\n", lookup(names, 7));
    printf("spread fits: %d\n", lookup(names, spread) > 0); /* want: PK301 */
    printf("checked: %d\n", SORT_CHECK(names, spread)); /* want: PK301 */
    return 0;
}
