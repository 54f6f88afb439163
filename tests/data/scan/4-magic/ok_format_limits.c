/* A container reader ported from a 32-bit media player. Its CRC-32 lives in
 * an unsigned long, as in zlib's API; the chunk length limit is the format's
 * 2^31-1; a 32-bit size field of 0xFFFFFFFF means "see the 64-bit field";
 * and a sequence number is folded into 32 bits on purpose. All of these are
 * 32-bit quantities in every data model. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct chunk_header {
    uint32_t length;
    uint32_t size32;
};

static unsigned long crc32_of(unsigned long crc, const unsigned char *p, size_t n)
{
    int k;

    crc = crc ^ 0xFFFFFFFF; /* ok: PK403 */
    while (n--) {
        crc ^= *p++;
        for (k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return crc ^ 0xFFFFFFFF; /* ok: PK403 */
}

int main(void)
{
    static const unsigned char data[] = "123456789";
    struct chunk_header hdr = {9, 0xFFFFFFFFu};
    size_t limit = 0x7FFFFFFF; /* ok: PK403 */
    unsigned long size = hdr.size32;
    unsigned long seq = 0x12345678UL;
    uint32_t folded = (uint32_t)(seq ^ 0x80000000); /* ok: PK403 */

    printf("crc %08lx\n", crc32_of(0, data, 9));
    printf("length within limit: %d\n", hdr.length <= limit);
    printf("size in the 64-bit field: %d\n", size == 0xFFFFFFFF); /* ok: PK403 */
    printf("folded %08x\n", (unsigned)folded);
    return 0;
}
