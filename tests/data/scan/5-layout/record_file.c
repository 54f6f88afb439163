/* A parts database written record by record with fwrite, in the layout the
 * 32-bit tools and head units read back. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct part_rec {
    long id;
    unsigned long flags;
    char *label;
    int qty;
};

struct db_header {
    uint32_t magic;
    uint16_t version;
    uint16_t count;
};

int main(void)
{
    struct db_header hdr = {0x50415254u, 1, 2};
    struct part_rec recs[2];
    FILE *f = tmpfile();

    memset(recs, 0, sizeof recs);
    recs[0].id = 101;
    recs[0].qty = 4;
    recs[1].id = 102;
    recs[1].qty = 9;
    fwrite(&hdr, sizeof hdr, 1, f); /* ok: PK501 */
    fwrite(recs, sizeof(struct part_rec), 2, f); /* want: PK501 */
    printf("database file: %ld bytes\n", ftell(f));
    fclose(f);
    return 0;
}
