/* The running kernel's build configuration, read one way for every command:
 * /proc/config.gz (CONFIG_IKCONFIG_PROC), else /boot/config-RELEASE, at
 * most PK_KCONFIG_MAX_BYTES packed or unpacked. `kconfig` sends the file's
 * bytes to the host as they are; `rt sysinfo` reads values from its text
 * (CONFIG_HZ, the preemption model a PREEMPT_DYNAMIC kernel boots with). */
#ifndef PK_KCONFIG_H
#define PK_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* A config larger than this is not one (they are ~300 KB unpacked). */
#define PK_KCONFIG_MAX_BYTES (64u * 1024u * 1024u)
#define PK_KCONFIG_MAX_BYTES_TEXT "64 MiB"

#define PK_KCONFIG_PLACES 2
#define PK_KCONFIG_PATH_MAX 300

/* Where the running kernel's config may be, in the order to try:
 * /proc/config.gz, /boot/config-<release>. */
void pk_kconfig_places(const char *release, char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX]);

/* The first of the places that exists (stat), or NULL. */
const char *pk_kconfig_first_existing(char places[PK_KCONFIG_PLACES][PK_KCONFIG_PATH_MAX]);

/* Reads the whole file into *data (malloc'd, *len bytes; /proc files say
 * size 0, so it reads in growing chunks). NULL on success, else why not:
 * strerror's words, "is a directory" or "larger than 64 MiB, not a kernel
 * config". */
const char *pk_kconfig_read_file(const char *path, unsigned char **data, size_t *len);

/* A config as text, to look values up in. */
typedef struct pk_kconfig {
    char *text;                       /* NULL when no configuration was readable */
    char source[PK_KCONFIG_PATH_MAX]; /* the file it came from */
    char why[PK_KCONFIG_PATH_MAX];    /* without text: what was tried and why it failed */
} pk_kconfig;

/* Loads the first readable of the places. */
bool pk_kconfig_load(pk_kconfig *k, const char *release);
/* Loads a given file (plain text, or gzip when it ends in .gz). */
bool pk_kconfig_load_file(pk_kconfig *k, const char *path);
void pk_kconfig_free(pk_kconfig *k);

/* The value of NAME ("CONFIG_HZ") without quotes, into buf: "y", "250", ...;
 * NULL when it is not set or there is no configuration. */
const char *pk_kconfig_get(const pk_kconfig *k, const char *name, char *buf, size_t size);
/* Whether NAME=y. */
bool pk_kconfig_enabled(const pk_kconfig *k, const char *name);

#endif
