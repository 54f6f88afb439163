/* Alignment checks from a 32-bit SoC's DMA driver: the controller wants
 * 4-byte aligned buffers, and the check casts the address to the 32-bit
 * register type before testing its low bits. Only those bits are used, and
 * they are the same whether the address had 32 bits or 64. */
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    uint32_t words[16];
    unsigned char *bytes = (unsigned char *)words;

    printf("aligned: %d\n", ((uint32_t)(uintptr_t)words & 3) == 0); /* ok: PK101 */
    printf("odd: %d\n", ((uint32_t)(uintptr_t)(bytes + 1) & 3) != 0); /* ok: PK101 */
    printf("word offset: %u\n", ((unsigned)(uintptr_t)(bytes + 8) % 64) % 4); /* ok: PK101 */
    return 0;
}
