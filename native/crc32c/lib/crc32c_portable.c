/* Table-driven CRC32C, slicing-by-8: eight table look-ups retire eight bytes
 * with no serial dependency between them. The fallback for CPUs without CRC
 * instructions (ARMv7, MIPS, old x86) and the reference the tests compare
 * every other implementation with. Endian-neutral. */
#include "crc32c_impls.h"
#include "crc32c_math.h"

/* Entry [0][b] is byte b's state after 8 zero bits, entry [k][b] the same
 * byte followed by k more zero bytes. */
static uint32_t table[8][256];

void pk_crc32c_portable_init(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t s = b;
        for (int bit = 0; bit < 8; bit++)
            s = (s >> 1) ^ (PK_CRC32C_POLY & (0u - (s & 1)));
        table[0][b] = s;
    }
    for (int k = 1; k < 8; k++)
        for (int b = 0; b < 256; b++) {
            uint32_t prev = table[k - 1][b];
            table[k][b] = (prev >> 8) ^ table[0][prev & 0xFF];
        }
}

uint32_t pk_crc32c_portable_update(uint32_t s, const uint8_t *p, size_t len)
{
    const uint32_t(*t)[256] = (const uint32_t(*)[256])table;
    for (; len && ((uintptr_t)p & 3); len--) /* word-align for slow-unaligned CPUs */
        s = (s >> 8) ^ t[0][(s ^ *p++) & 0xFF];
    for (; len >= 8; len -= 8, p += 8) {
        uint32_t lo = pk_load_le32(p) ^ s;
        uint32_t hi = pk_load_le32(p + 4);
        s = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
            t[4][lo >> 24] ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^
            t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    }
    for (; len; len--)
        s = (s >> 8) ^ t[0][(s ^ *p++) & 0xFF];
    return s;
}

uint32_t pk_crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
    return ~pk_crc32c_portable_update(~crc, (const uint8_t *)buf, len);
}
