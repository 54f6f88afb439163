/* A config file's bytes as hex, for the JSON document of `portkit-target
 * kconfig` (the file is usually gzip, which a JSON string cannot hold). */
#ifndef KCONFIG_HEX_H
#define KCONFIG_HEX_H

#include <stddef.h>

/* Lower-case hex of the bytes, NUL-terminated and malloc'd; NULL when out of memory. */
char *kconfig_hex(const unsigned char *data, size_t len);

#endif
