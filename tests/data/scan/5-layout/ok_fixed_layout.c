/* Records whose layout is the same on every target: fixed-width fields in
 * size order, timestamps stored as the field report advises (a deliberate 32-bit
 * format), and a struct copied to another object of its own type. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

struct part_rec_v2 {
    int32_t id;
    uint32_t flags;
    uint32_t label_offset;
    int32_t qty;
};

struct tv32 {
    int32_t sec;
    int32_t usec;
};

struct sample {
    uint16_t id;
    uint8_t kind;
    uint8_t pad;
    int32_t value;
    int64_t stamp;
};

struct session {
    long opened;
    char *user;
};

int main(void)
{
    struct part_rec_v2 rec = {101, 0, 0, 4};
    struct sample s = {7, 1, 0, -20, 1262304000000LL}, back;
    struct session live = {1, NULL}, copy;
    struct timeval tv;
    struct tv32 t32;
    FILE *f = tmpfile();

    tv.tv_sec = 1262304000;
    tv.tv_usec = 500000;
    t32.sec = (int32_t)tv.tv_sec; /* ok: PK302 */
    t32.usec = (int32_t)tv.tv_usec; /* ok: PK301 */
    fwrite(&rec, sizeof rec, 1, f); /* ok: PK501 */
    fwrite(&t32, sizeof t32, 1, f); /* ok: PK501 */
    fwrite(&s, sizeof s, 1, f); /* ok: PK501 */
    printf("file: %ld bytes\n", ftell(f));
    rewind(f);
    fseek(f, (long)(sizeof rec + sizeof t32), SEEK_SET);
    if (fread(&back, sizeof back, 1, f) == 1) /* ok: PK501 */
        printf("sample back: id %u, value %d, stamp %lld\n", back.id, (int)back.value, (long long)back.stamp);
    memcpy(&copy, &live, sizeof live); /* ok: PK501 */
    printf("session copied: %d\n", copy.opened == live.opened && copy.user == live.user);
    fclose(f);
    return 0;
}
