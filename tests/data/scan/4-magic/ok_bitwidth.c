/* 32 where it is the width of a 32-bit type, or no width at all: fixed-width
 * rotates, the high word of a uint64_t, a 32-byte name buffer. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NAME_LEN 32

static uint32_t ror32(uint32_t x, unsigned int n)
{
    return (x >> n) | (x << (32 - n)); /* ok: PK402 */
}

static uint32_t high_word(uint64_t v)
{
    return (uint32_t)(v >> 32); /* ok: PK402 */
}

static int long_bits(void)
{
    return (int)(CHAR_BIT * sizeof(long)); /* ok: PK402 */
}

int main(void)
{
    char name[NAME_LEN];
    int i, spaces = 0;

    strcpy(name, "front left speaker");
    for (i = 0; i < 32 && name[i] != '\0'; i++) /* ok: PK402 */
        if (name[i] == ' ')
            spaces++;
    printf("ror32: %#" PRIx32 "\n", ror32(0x12345678u, 8));
    printf("high word: %#" PRIx32 "\n", high_word(0x1122334455667788ULL));
    printf("spaces: %d, long is whole bytes: %d\n", spaces, long_bits() % CHAR_BIT == 0);
    return 0;
}
