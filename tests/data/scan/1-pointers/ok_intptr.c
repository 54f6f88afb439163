/* The field report's correction applied throughout: integers that hold addresses are
 * intptr_t or uintptr_t, and a conversion that loses bits on every target
 * (a pointer hashed into a byte) is not a porting matter. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/mman.h>

#define N 8

int main(void)
{
    int a[N];
    int *p;
    intptr_t addr;
    uintptr_t tagged;
    unsigned char bucket;
    void *m;

    addr = (intptr_t)a; /* ok: PK101 */
    p = (int *)addr; /* ok: PK102 */
    printf("intptr_t round trip: %d\n", p == a);

    tagged = (uintptr_t)&a[1] | 1u; /* ok: PK101 */
    p = (int *)(tagged & ~(uintptr_t)1); /* ok: PK102 */
    printf("tag bit removed: %d\n", p == &a[1]);

    bucket = (unsigned char)a & 0x0f; /* ok: PK101 */
    printf("hash bucket in range: %d\n", bucket < 16);

    p = (int *)0; /* ok: PK102 */
    printf("null is NULL: %d\n", p == NULL);

    m = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mapped: %d\n", m != (void *)-1); /* ok: PK102 */
    munmap(m, 4096);
    return 0;
}
