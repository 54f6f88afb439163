/* A ZIP writer from a 32-bit tool: zlib returns a CRC-32 in its uLong type
 * (8 bytes on LP64), and the archive's header field is a 32-bit unsigned.
 * A CRC-32 is 32 bits in every data model: nothing is cut. (No main: the
 * cross sysroots hold no zlib to link with; zlib.h is the build machine's.) */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

struct zip_entry {
    uint32_t crc32;
    uint32_t size;
};

void zip_fill(struct zip_entry *entry, const unsigned char *data, uint32_t size)
{
    entry->crc32 = crc32(0, data, size); /* ok: PK301 */
    entry->size = size;
}
