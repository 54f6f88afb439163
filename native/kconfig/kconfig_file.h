/* Finding and reading a kernel config file, and its bytes as hex: the parts
 * of `portkit-target kconfig` that tests can call without a running kernel. */
#ifndef KCONFIG_FILE_H
#define KCONFIG_FILE_H

#include <stddef.h>

/* A config larger than this is not one (they are ~300 KB unpacked). */
#define KCONFIG_MAX_BYTES (64u * 1024u * 1024u)

/* The first of the paths that exists, or NULL. */
const char *kconfig_first_existing(const char *const *paths, size_t count);

/* Reads the whole file into *data (malloc'd, *len bytes). NULL on success,
 * else why not (strerror's words, or "larger than 64 MiB", "is a directory"). */
const char *kconfig_read_file(const char *path, unsigned char **data, size_t *len);

/* Lower-case hex of the bytes, NUL-terminated and malloc'd; NULL when out of memory. */
char *kconfig_hex(const unsigned char *data, size_t len);

#endif
