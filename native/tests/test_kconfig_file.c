/* kconfig_file: the first existing path, whole files past one read chunk
 * (NUL bytes kept, as in gzip data), directories and missing files refused
 * with a reason, and hex that round-trips. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kconfig_file.h"
#include "pk_test.h"

int main(void)
{
    char dir[] = "/tmp/pk-kconfig-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], missing[256];
    snprintf(path, sizeof path, "%s/config.gz", dir);
    snprintf(missing, sizeof missing, "%s/absent", dir);

    enum { SIZE = 200003 }; /* past three 64 KiB chunks, not a multiple of one */
    unsigned char *want = malloc(SIZE);
    for (size_t i = 0; i < SIZE; i++)
        want[i] = (unsigned char)(i * 7 + i / 251);
    want[0] = 0x1f;
    want[5] = 0; /* NUL bytes stay */
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(want, 1, SIZE, f) == SIZE);
    fclose(f);

    const char *paths[] = {missing, path, dir};
    CHECK(kconfig_first_existing(paths, 3) == path);
    CHECK(kconfig_first_existing(paths, 1) == NULL);

    unsigned char *got = NULL;
    size_t len = 0;
    CHECK(kconfig_read_file(path, &got, &len) == NULL);
    CHECK(len == SIZE && got && !memcmp(got, want, SIZE));
    free(got);

    const char *why = kconfig_read_file(missing, &got, &len);
    CHECK(why && strstr(why, "No such file"));
    why = kconfig_read_file(dir, &got, &len);
    CHECK(why && !strcmp(why, "is a directory"));

    const unsigned char bytes[] = {0x00, 0x1f, 0x8b, 0xff, 0x7a};
    char *hex = kconfig_hex(bytes, sizeof bytes);
    CHECK(hex && !strcmp(hex, "001f8bff7a"));
    free(hex);
    hex = kconfig_hex(bytes, 0);
    CHECK(hex && hex[0] == '\0');
    free(hex);

    unlink(path);
    rmdir(dir);
    free(want);
    return TEST_EXIT();
}
