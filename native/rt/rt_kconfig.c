#include "rt_kconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_gunzip.h"
#include "rt_sysfs.h"

#define MAX_CONFIG_BYTES (16u << 20) /* a kernel config is a few hundred kB */

bool rt_kconfig_load_file(rt_kconfig *k, const char *path)
{
    size_t len, plain_len;
    char *raw = rt_read_whole(path, MAX_CONFIG_BYTES, &len);
    if (!raw) {
        snprintf(k->why, sizeof k->why, "%s: %s", path, strerror(errno));
        return false;
    }
    size_t n = strlen(path);
    if (n > 3 && !strcmp(path + n - 3, ".gz")) {
        const char *why;
        char *plain;
        bool ok = rt_gunzip((const uint8_t *)raw, len, MAX_CONFIG_BYTES, &plain, &plain_len, &why);
        free(raw);
        if (!ok) {
            snprintf(k->why, sizeof k->why, "%s: %s", path, why);
            return false;
        }
        raw = plain;
    }
    free(k->text);
    k->text = raw;
    snprintf(k->source, sizeof k->source, "%s", path);
    k->why[0] = '\0';
    return true;
}

bool rt_kconfig_load(rt_kconfig *k, const char *release)
{
    memset(k, 0, sizeof *k);
    char boot[300], first[300];
    if (rt_kconfig_load_file(k, "/proc/config.gz"))
        return true;
    snprintf(first, sizeof first, "%s", k->why);
    snprintf(boot, sizeof boot, "/boot/config-%.200s", release);
    if (rt_kconfig_load_file(k, boot))
        return true;
    char second[sizeof k->why];
    snprintf(second, sizeof second, "%s", k->why);
    snprintf(k->why, sizeof k->why, "%.140s; %.140s", first, second);
    return false;
}

void rt_kconfig_free(rt_kconfig *k)
{
    free(k->text);
    k->text = NULL;
}

const char *rt_kconfig_get(const rt_kconfig *k, const char *name, char *buf, size_t size)
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

bool rt_kconfig_enabled(const rt_kconfig *k, const char *name)
{
    char v[8];
    return rt_kconfig_get(k, name, v, sizeof v) && !strcmp(v, "y");
}
