#include "kconfig_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *kconfig_first_existing(const char *const *paths, size_t count)
{
    struct stat st;
    for (size_t i = 0; i < count; i++)
        if (stat(paths[i], &st) == 0)
            return paths[i];
    return NULL;
}

const char *kconfig_read_file(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strerror(errno);
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return "is a directory";
    }
    /* /proc files report size 0: read in growing chunks instead of trusting st_size. */
    size_t cap = 64 * 1024, used = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (used < cap)
            break;
        if (cap >= KCONFIG_MAX_BYTES) {
            free(buf);
            fclose(f);
            return "larger than 64 MiB, not a kernel config";
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

char *kconfig_hex(const unsigned char *data, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    char *hex = malloc(len * 2 + 1);
    if (!hex)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        hex[2 * i] = digits[data[i] >> 4];
        hex[2 * i + 1] = digits[data[i] & 15];
    }
    hex[len * 2] = '\0';
    return hex;
}
