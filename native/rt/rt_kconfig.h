/* The running kernel's build configuration: /proc/config.gz (CONFIG_IKCONFIG_PROC)
 * or /boot/config-RELEASE. It answers what uname cannot: CONFIG_HZ, and the
 * preemption model a PREEMPT_DYNAMIC kernel boots with. */
#ifndef RT_KCONFIG_H
#define RT_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rt_kconfig {
    char *text;       /* NULL when no configuration was readable */
    char source[300]; /* the file it came from */
    char why[300];    /* without text: what was tried and why it failed */
} rt_kconfig;

/* Loads the first readable of /proc/config.gz and /boot/config-<release>. */
bool rt_kconfig_load(rt_kconfig *k, const char *release);
/* Loads a given file (plain text, or gzip when it ends in .gz). */
bool rt_kconfig_load_file(rt_kconfig *k, const char *path);
void rt_kconfig_free(rt_kconfig *k);

/* The value of NAME ("CONFIG_HZ") without quotes, into buf: "y", "250", ...;
 * NULL when it is not set or there is no configuration. */
const char *rt_kconfig_get(const rt_kconfig *k, const char *name, char *buf, size_t size);
/* Whether NAME=y. */
bool rt_kconfig_enabled(const rt_kconfig *k, const char *name);

#endif
