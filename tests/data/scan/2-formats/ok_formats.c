/* Directives that fit their arguments in every data model: %zu, %td, %ld,
 * the <inttypes.h> macros, and explicit casts where a plain %d is wanted. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct sample {
    uint32_t id;
    int16_t value;
    uint16_t flags;
};

int main(void)
{
    const char *path = "/dev/can0";
    const char *base = strrchr(path, '/') + 1;
    long offset = -42;
    unsigned long mask = 0xf0f0UL;
    uint64_t total = 5000000000ULL;
    uint32_t crc = 0xcbf43926u;
    unsigned short port = 8080;

    printf("path length %zu\n", strlen(path)); /* ok: PK201 */
    printf("base name at %td\n", base - path); /* ok: PK201 */
    printf("offset %ld, mask %lx\n", offset, mask); /* ok: PK201 */
    printf("total %" PRIu64 ", crc %08" PRIx32 "\n", total, crc); /* ok: PK201 */
    printf("sample is %d bytes\n", (int)sizeof(struct sample)); /* ok: PK201 */
    printf("total as long long %lld\n", (long long)total); /* ok: PK201 */
    printf("port %hu, base %s\n", port, base); /* ok: PK201 */
    printf("name length %d\n", (int)strlen(base)); /* ok: PK201 */
    return 0;
}
