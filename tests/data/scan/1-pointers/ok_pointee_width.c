/* Casts between pointers that are right in both data models: bytes through
 * char pointers, pointees of one width in both (uint32_t and int, unsigned
 * long and long, uintptr_t and unsigned long, int64_t and long long), memory
 * allocated for longs reached through void *, struct headers over a byte
 * buffer, a 32-bit register through volatile uint32_t *, and one allocation
 * carved into an array of pointers and an array of ints after it (sqlite's
 * shell does this for column names and types). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct header {
    uint16_t type;
    uint16_t length;
};

static uint32_t regs[2] = {0x1234, 0x5678};

int main(void)
{
    long value = 0x01020304;
    unsigned char *bytes = (unsigned char *)&value; /* ok: PK103 */
    int sum = 0;
    for (size_t i = 0; i < 4; i++)
        sum += bytes[i];
    printf("byte sum %d\n", sum);

    int signed_count = -5;
    uint32_t *as_u32 = (uint32_t *)&signed_count; /* ok: PK103 */
    printf("as u32 0x%x\n", (unsigned)*as_u32);

    unsigned long *as_ulong = (unsigned long *)&value; /* ok: PK103 */
    *as_ulong += 1;
    unsigned long address = 4096;
    uintptr_t *as_uintptr = (uintptr_t *)&address; /* ok: PK103 */
    long long big = 1LL << 40;
    int64_t *as_i64 = (int64_t *)&big; /* ok: PK103 */
    printf("%ld %lu %lld\n", value, (unsigned long)*as_uintptr, (long long)*as_i64);

    void *block = malloc(4 * sizeof(long));
    if (block == NULL)
        return 1;
    long *longs = (long *)block; /* ok: PK103 */
    for (int i = 0; i < 4; i++)
        longs[i] = -i;
    printf("last long %ld\n", longs[3]);
    free(block);

    unsigned char frame[8] = {1, 0, 4, 0, 'd', 'a', 't', 'a'};
    const struct header *h = (const struct header *)frame; /* ok: PK103 */
    printf("type %u length %u\n", h->type, h->length);

    *(volatile uint32_t *)&regs[0] = 0xABCD; /* ok: PK103 */
    printf("regs 0x%x 0x%x\n", (unsigned)regs[0], (unsigned)*(volatile uint32_t *)(void *)&regs[1]); /* ok: PK103 */

    int columns = 3;
    char **names = malloc(columns * sizeof(char *) + columns * sizeof(int) + columns * sizeof(unsigned));
    if (names == NULL)
        return 1;
    int *types = (int *)&names[columns]; /* ok: PK103 */
    unsigned *lengths = (unsigned *)(names + columns) + columns; /* ok: PK103 */
    for (int i = 0; i < columns; i++) {
        names[i] = "col";
        types[i] = i + 1;
        lengths[i] = 3;
    }
    printf("%s %d %u\n", names[2], types[2], lengths[2]);
    free(names);

    char text[16];
    const char *source = "pointee";
    memcpy(text, (const char *)source, strlen(source) + 1); /* ok: PK103 */
    printf("%s\n", text);
    return 0;
}
