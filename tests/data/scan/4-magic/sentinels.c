/* Error sentinels from a 32-bit flash driver: "no address" and "bad length"
 * are all ones, and callers compare with 0xFFFFFFFF. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FLASH_BAD_ADDR 0xFFFFFFFF

typedef unsigned long ulong_t;

static ulong_t flash_lookup(const char *part)
{
    if (strcmp(part, "boot") == 0)
        return 0x1000UL;
    return (ulong_t)-1; /* ok: PK403 */
}

static size_t parse_len(const char *s)
{
    size_t n = 0;

    while (*s >= '0' && *s <= '9')
        n = n * 10 + (size_t)(*s++ - '0');
    return *s != '\0' ? (size_t)-1 : n; /* ok: PK403 */
}

static long bucket_of(long key)
{
    return key & 0x7FFFFFFF; /* want: PK403 */
}

static int is_negative(long offset)
{
    return (offset & 0x80000000) != 0; /* want: PK403 */
}

int main(void)
{
    ulong_t addr = flash_lookup("rootfs");
    size_t len = parse_len("12x");

    printf("rootfs missing: %d\n", addr == FLASH_BAD_ADDR); /* want: PK403 */
    printf("rootfs unset: %d\n", addr == (unsigned)-1); /* want: PK403 */
    printf("length invalid: %d\n", len == 0xFFFFFFFF); /* want: PK403 */
    printf("length invalid (fixed): %d\n", len == (size_t)-1); /* ok: PK403 */
    printf("bucket %ld, negative %d\n", bucket_of(-7), is_negative(-7));
    return 0;
}
