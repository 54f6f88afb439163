/* The one kernel-config reader (pk_kconfig) and its gunzip on tests/data/rt:
 * dynamic, fixed and stored deflate blocks give back config-sample byte for
 * byte; damaged copies (truncated, bits flipped) give an error, never a
 * crash or a read outside the input (ASan). Whole files past one read chunk
 * (NUL bytes kept, as in gzip data); directories and missing files refused
 * with a reason; the places searched, in order. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pk_gunzip.h"
#include "pk_kconfig.h"
#include "pk_test.h"

#define LIMIT (1u << 20)

static void check_decompresses(const char *dir, const char *name, const uint8_t *want, size_t want_len)
{
    size_t len, out_len;
    uint8_t *gz = pk_test_read_file(dir, name, &len);
    char *out;
    const char *why = NULL;
    bool ok = pk_gunzip(gz, len, LIMIT, &out, &out_len, &why);
    if (!ok)
        fprintf(stderr, "%s: %s\n", name, why);
    CHECK(ok && out_len == want_len && !memcmp(out, want, want_len) && out[out_len] == '\0');
    free(out);
    free(gz);
}

/* Cut and flipped copies: every outcome is an error or a buffer, never a crash. */
static void check_damage(const char *dir)
{
    size_t len, out_len;
    uint8_t *gz = pk_test_read_file(dir, "config-dynamic.gz", &len);
    char *out;
    const char *why;
    for (size_t cut = 0; cut < len; cut += 397) {
        CHECK(!pk_gunzip(gz, cut, LIMIT, &out, &out_len, &why));
        CHECK(out == NULL);
    }
    uint32_t seed = 12345;
    int accepted = 0;
    for (int i = 0; i < 300; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % len;
        uint8_t bit = (uint8_t)(1u << ((seed >> 4) & 7));
        gz[at] ^= bit;
        if (pk_gunzip(gz, len, LIMIT, &out, &out_len, &why)) {
            accepted++; /* a flip in the header's name or time: the content is intact */
            free(out);
        }
        gz[at] ^= bit;
    }
    CHECK(accepted < 10);
    /* The limit holds: 76 kB of output does not fit in 1 kB. */
    CHECK(!pk_gunzip(gz, len, 1024, &out, &out_len, &why) && !strcmp(why, "larger than the limit"));
    const uint8_t not_gzip[20] = "plain text, not gz!";
    CHECK(!pk_gunzip(not_gzip, sizeof not_gzip, LIMIT, &out, &out_len, &why) && !strcmp(why, "not gzip data"));
    free(gz);
}

static void check_kconfig(const char *dir, const char *name)
{
    char path[1024], v[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pk_kconfig k = {0};
    CHECK(pk_kconfig_load_file(&k, path));
    CHECK(!strcmp(k.source, path));
    CHECK(pk_kconfig_get(&k, "CONFIG_HZ", v, sizeof v) && !strcmp(v, "250"));
    CHECK(pk_kconfig_enabled(&k, "CONFIG_PREEMPT_DYNAMIC"));
    CHECK(pk_kconfig_enabled(&k, "CONFIG_PREEMPT_VOLUNTARY"));
    CHECK(!pk_kconfig_enabled(&k, "CONFIG_PREEMPT"));      /* not set, though CONFIG_PREEMPT_BUILD=y */
    CHECK(!pk_kconfig_get(&k, "CONFIG_PREEMPT_NONE", v, sizeof v)); /* "# ... is not set" */
    CHECK(pk_kconfig_get(&k, "CONFIG_CC_VERSION_TEXT", v, sizeof v) && !strcmp(v, "gcc (Debian 12.2.0-14) 12.2.0"));
    CHECK(pk_kconfig_get(&k, "CONFIG_LOCALVERSION", v, sizeof v) && !strcmp(v, ""));
    CHECK(pk_kconfig_get(&k, "CONFIG_FILLER_1499", v, sizeof v) && !strcmp(v, "y"));
    CHECK(!pk_kconfig_get(&k, "CONFIG_FILLER_1500", v, sizeof v));
    pk_kconfig_free(&k);
}

static void check_read_file(void)
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

    unsigned char *got = NULL;
    size_t len = 0;
    CHECK(pk_kconfig_read_file(path, &got, &len) == NULL);
    CHECK(len == SIZE && got && !memcmp(got, want, SIZE));
    free(got);
    const char *why = pk_kconfig_read_file(missing, &got, &len);
    CHECK(why && strstr(why, "No such file"));
    why = pk_kconfig_read_file(dir, &got, &len);
    CHECK(why && !strcmp(why, "is a directory"));

    /* Not gzip data behind a .gz name: the reason names the file. */
    pk_kconfig k = {0};
    CHECK(!pk_kconfig_load_file(&k, path));
    char want_why[300];
    snprintf(want_why, sizeof want_why, "%s: not gzip data", path);
    CHECK_TEXT(k.why, want_why);

    unlink(path);
    rmdir(dir);
    free(want);
}

static void check_places(void)
{
    char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX];
    pk_kconfig_places("6.1.0-rt", places);
    CHECK_TEXT(places[0], "/proc/config.gz");
    CHECK_TEXT(places[1], "/boot/config-6.1.0-rt");
    pk_kconfig_places("no-such-release", places);
    struct stat st;
    const char *first = pk_kconfig_first_existing(places);
    CHECK(first == (stat("/proc/config.gz", &st) == 0 ? places[0] : NULL));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_kconfig_reader DATA_DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    size_t want_len;
    uint8_t *want = pk_test_read_file(dir, "config-sample", &want_len);
    check_decompresses(dir, "config-dynamic.gz", want, want_len);
    check_decompresses(dir, "config-fixed.gz", want, want_len);
    check_decompresses(dir, "config-stored.gz", want, want_len);
    check_decompresses(dir, "config-empty.gz", want, 0);
    check_damage(dir);
    check_kconfig(dir, "config-sample");
    check_kconfig(dir, "config-dynamic.gz");
    check_read_file();
    check_places();

    pk_kconfig k = {0};
    CHECK(!pk_kconfig_load_file(&k, "/nonexistent/config.gz") && strstr(k.why, "/nonexistent/config.gz: "));
    char v[8];
    CHECK(!pk_kconfig_get(&k, "CONFIG_HZ", v, sizeof v));
    free(want);
    return TEST_EXIT();
}
