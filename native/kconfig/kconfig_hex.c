#include "kconfig_hex.h"

#include <stdlib.h>

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
