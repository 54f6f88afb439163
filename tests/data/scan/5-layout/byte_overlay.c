/* Overlays from a CAN stack: an unsigned long filled byte by byte from the
 * wire, and a pointer overlaid with the 32-bit id a peer echoes back. */
#include <stdio.h>

union word_bytes {
    unsigned long word; /* want: PK502 */
    unsigned char bytes[4];
};

union handle {
    void *ptr; /* want: PK502 */
    unsigned int id;
};

int main(void)
{
    static const unsigned char wire[4] = {0x11, 0x22, 0x33, 0x44};
    union word_bytes w;
    union handle out, back;
    int i, target = 0;

    w.word = 0;
    for (i = 0; i < 4; i++)
        w.bytes[i] = wire[i];
    out.ptr = &target;
    back.ptr = NULL;
    back.id = out.id;
    printf("word from the wire: %#lx\n", w.word);
    printf("echoed id is the pointer: %d\n", back.ptr == &target);
    return 0;
}
