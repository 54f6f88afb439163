/* A flash partition eraser that walks the partition in erase blocks with an
 * int offset, against a partition size kept in unsigned long (a 3 GiB eMMC
 * user area here; nothing is really erased). */
#include <stdio.h>

#define ERASE_BLOCK 0x10000000 /* 256 MiB */

static int erase_calls;

static void erase_block(int off)
{
    (void)off;
    erase_calls++;
}

int main(void)
{
    unsigned long part_size = 3UL << 30;
    int off;

    for (off = 0; off < part_size; off += ERASE_BLOCK) /* want: PK601 */
        erase_block(off);
    printf("blocks erased: %d of %lu\n", erase_calls, part_size / ERASE_BLOCK);
    return 0;
}
