/* Linux kernel style: an address held in an unsigned long. Right on ILP32 and
 * LP64, where long is as wide as a pointer; only LLP64 breaks it (see
 * llp64_long_ptr.c). */
#include <stdio.h>

#define PAGE_SIZE 4096UL
#define PAGE_MASK (~(PAGE_SIZE - 1))

int main(void)
{
    char pool[3 * 4096];
    unsigned long addr = (unsigned long)&pool[5000]; /* ok: PK101 */
    unsigned long page = addr & PAGE_MASK; /* ok: PK403 */
    char *page_start = (char *)page; /* ok: PK102 */
    char *back = (char *)addr; /* ok: PK102 */
    long off = (long)&pool[100] - (long)&pool[0]; /* ok: PK101 */

    printf("round trip: %d\n", back == &pool[5000]);
    printf("page start below: %d\n", page_start <= back && back - page_start < 4096);
    printf("offset %ld\n", off);
    return 0;
}
