#include "pk_kconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pk_gunzip.h"

void pk_kconfig_places(const char *release, char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX])
{
    snprintf(places[0], PK_KCONFIG_PATH_MAX, "/proc/config.gz");
    snprintf(places[1], PK_KCONFIG_PATH_MAX, "/boot/config-%.200s", release);
}

const char *pk_kconfig_first_existing(char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX])
{
    struct stat st;
    for (size_t i = 0; i < PK_KCONFIG_PLACES; i++)
        if (stat(places[i], &st) == 0)
            return places[i];
    return NULL;
}

const char *pk_kconfig_read_file(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strerror(errno);
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return "is a directory";
    }
    size_t cap = 64 * 1024, used = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (used < cap)
            break;
        if (cap >= PK_KCONFIG_MAX_BYTES) {
            free(buf);
            fclose(f);
            return "larger than " PK_KCONFIG_MAX_BYTES_TEXT ", not a kernel config";
        }
        unsigned char *grown = realloc(buf, cap * 2);
        if (!grown)
            free(buf);
        buf = grown;
        cap *= 2;
    }
    if (!buf) {
        fclose(f);
        return "out of memory";
    }
    if (ferror(f)) {
        const char *why = strerror(errno);
        free(buf);
        fclose(f);
        return why;
    }
    fclose(f);
    *data = buf;
    *len = used;
    return NULL;
}

/* The bytes as a NUL-terminated string: unpacked when path ends in .gz. */
static const char *as_text(const char *path, unsigned char *raw, size_t len, char **text)
{
    size_t n = strlen(path), plain_len;
    if (n > 3 && !strcmp(path + n - 3, ".gz")) {
        const char *why = NULL;
        bool ok = pk_gunzip(raw, len, PK_KCONFIG_MAX_BYTES, text, &plain_len, &why);
        free(raw);
        return ok ? NULL : why;
    }
    char *plain = realloc(raw, len + 1);
    if (!plain) {
        free(raw);
        return "out of memory";
    }
    plain[len] = '\0';
    *text = plain;
    return NULL;
}

bool pk_kconfig_load_file(pk_kconfig *k, const char *path)
{
    unsigned char *raw;
    size_t len;
    char *text = NULL;
    const char *why = pk_kconfig_read_file(path, &raw, &len);
    if (!why)
        why = as_text(path, raw, len, &text);
    if (why) {
        snprintf(k->why, sizeof k->why, "%s: %s", path, why);
        return false;
    }
    free(k->text);
    k->text = text;
    snprintf(k->source, sizeof k->source, "%s", path);
    k->why[0] = '\0';
    return true;
}

bool pk_kconfig_load(pk_kconfig *k, const char *release)
{
    memset(k, 0, sizeof *k);
    char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX], first[sizeof k->why];
    pk_kconfig_places(release, places);
    if (pk_kconfig_load_file(k, places[0]))
        return true;
    snprintf(first, sizeof first, "%s", k->why);
    if (pk_kconfig_load_file(k, places[1]))
        return true;
    char second[sizeof k->why];
    snprintf(second, sizeof second, "%s", k->why);
    snprintf(k->why, sizeof k->why, "%.140s; %.140s", first, second);
    return false;
}

void pk_kconfig_free(pk_kconfig *k)
{
    free(k->text);
    k->text = NULL;
}

const char *pk_kconfig_get(const pk_kconfig *k, const char *name, char *buf, size_t size)
{
    if (!k->text)
        return NULL;
    size_t n = strlen(name);
    for (const char *line = k->text, *nl; line; line = (nl = strchr(line, '\n')) ? nl + 1 : NULL) {
        if (strncmp(line, name, n) != 0 || line[n] != '=')
            continue;
        const char *v = line + n + 1;
        size_t len = strcspn(v, "\n");
        if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
            v++;
            len -= 2;
        }
        if (len >= size)
            len = size - 1;
        memcpy(buf, v, len);
        buf[len] = '\0';
        return buf;
    }
    return NULL;
}

bool pk_kconfig_enabled(const pk_kconfig *k, const char *name)
{
    char v[8];
    return pk_kconfig_get(k, name, v, sizeof v) && !strcmp(v, "y");
}
