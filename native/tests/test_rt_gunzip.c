/* rt_gunzip and rt_kconfig on tests/data/rt: dynamic, fixed and stored
 * deflate blocks give back config-sample byte for byte; damaged copies
 * (truncated, bits flipped) give an error, never a crash or a read outside
 * the input (ASan). */
#include <stdlib.h>
#include <string.h>

#include "pk_test.h"
#include "rt_gunzip.h"
#include "rt_kconfig.h"

#define LIMIT (1u << 20)

static void check_decompresses(const char *dir, const char *name, const uint8_t *want, size_t want_len)
{
    size_t len, out_len;
    uint8_t *gz = pk_test_read_file(dir, name, &len);
    char *out;
    const char *why = NULL;
    bool ok = rt_gunzip(gz, len, LIMIT, &out, &out_len, &why);
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
        CHECK(!rt_gunzip(gz, cut, LIMIT, &out, &out_len, &why));
        CHECK(out == NULL);
    }
    uint32_t seed = 12345;
    int accepted = 0;
    for (int i = 0; i < 300; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % len;
        uint8_t bit = (uint8_t)(1u << ((seed >> 4) & 7));
        gz[at] ^= bit;
        if (rt_gunzip(gz, len, LIMIT, &out, &out_len, &why)) {
            accepted++; /* a flip in the header's name or time: the content is intact */
            free(out);
        }
        gz[at] ^= bit;
    }
    CHECK(accepted < 10);
    /* The limit holds: 76 kB of output does not fit in 1 kB. */
    CHECK(!rt_gunzip(gz, len, 1024, &out, &out_len, &why) && !strcmp(why, "larger than the limit"));
    const uint8_t not_gzip[20] = "plain text, not gz!";
    CHECK(!rt_gunzip(not_gzip, sizeof not_gzip, LIMIT, &out, &out_len, &why) && !strcmp(why, "not gzip data"));
    free(gz);
}

static void check_kconfig(const char *dir, const char *name)
{
    char path[1024], v[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    rt_kconfig k = {0};
    CHECK(rt_kconfig_load_file(&k, path));
    CHECK(!strcmp(k.source, path));
    CHECK(rt_kconfig_get(&k, "CONFIG_HZ", v, sizeof v) && !strcmp(v, "250"));
    CHECK(rt_kconfig_enabled(&k, "CONFIG_PREEMPT_DYNAMIC"));
    CHECK(rt_kconfig_enabled(&k, "CONFIG_PREEMPT_VOLUNTARY"));
    CHECK(!rt_kconfig_enabled(&k, "CONFIG_PREEMPT"));      /* not set, though CONFIG_PREEMPT_BUILD=y */
    CHECK(!rt_kconfig_get(&k, "CONFIG_PREEMPT_NONE", v, sizeof v)); /* "# ... is not set" */
    CHECK(rt_kconfig_get(&k, "CONFIG_CC_VERSION_TEXT", v, sizeof v) && !strcmp(v, "gcc (Debian 12.2.0-14) 12.2.0"));
    CHECK(rt_kconfig_get(&k, "CONFIG_LOCALVERSION", v, sizeof v) && !strcmp(v, ""));
    CHECK(rt_kconfig_get(&k, "CONFIG_FILLER_1499", v, sizeof v) && !strcmp(v, "y"));
    CHECK(!rt_kconfig_get(&k, "CONFIG_FILLER_1500", v, sizeof v));
    rt_kconfig_free(&k);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_rt_gunzip DATA_DIR\n");
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

    rt_kconfig k = {0};
    CHECK(!rt_kconfig_load_file(&k, "/nonexistent/config.gz") && strstr(k.why, "/nonexistent/config.gz: "));
    char v[8];
    CHECK(!rt_kconfig_get(&k, "CONFIG_HZ", v, sizeof v));
    free(want);
    return TEST_EXIT();
}
