/* CPU feature detection, the part every architecture shares: the auxiliary
 * vector, /proc/cpuinfo lines, the hwcap engine, detecting once and the
 * lookups. The tables and whatever else is one ISA family's own live in
 * pk_cpu_features_x86.c, _arm.c, _mips.c and _other.c. */
#include "pk_cpu_features.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "pk_arch.h"
#include "pk_cpu_features_isa.h"

static pk_cpu_state state;
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;

const char *pk_cpu_keep_string(char *dst, size_t size, const char *src)
{
    while (*src && isspace((unsigned char)*src))
        src++;
    snprintf(dst, size, "%s", src);
    size_t len = strlen(dst);
    while (len > 0 && isspace((unsigned char)dst[len - 1]))
        dst[--len] = '\0';
    return len ? dst : NULL;
}

/* The kernel's AT_HWCAP/AT_HWCAP2 exactly as it passed them. getauxval() is
 * not enough on x86: glibc replaces its AT_HWCAP answer with its own platform
 * bits (init_cpu_features overwrites dl_hwcap), so /proc/self/auxv, which
 * the kernel (or qemu-user) fills from the real vector, comes first. False
 * when it cannot be read (no /proc on a minimal board). */
static bool hwcaps_from_proc(uint64_t *hwcap, uint64_t *hwcap2)
{
    FILE *f = fopen("/proc/self/auxv", "rb");
    if (!f)
        return false;
    unsigned long entry[2]; /* the auxv word size is the process's */
    bool any = false;
    while (fread(entry, sizeof entry, 1, f) == 1 && entry[0] != AT_NULL) {
        any = true;
        if (entry[0] == AT_HWCAP)
            *hwcap = entry[1];
#ifdef AT_HWCAP2
        if (entry[0] == AT_HWCAP2)
            *hwcap2 = entry[1];
#endif
    }
    fclose(f);
    return any;
}

static void read_auxv(pk_cpu_state *s)
{
    s->info.platform = (const char *)getauxval(AT_PLATFORM);
    s->hwcaps_from_proc = hwcaps_from_proc(&s->info.hwcap, &s->info.hwcap2);
    if (s->hwcaps_from_proc)
        return;
    s->info.hwcap = getauxval(AT_HWCAP);
#ifdef AT_HWCAP2
    s->info.hwcap2 = getauxval(AT_HWCAP2);
#endif
}

void pk_cpu_cpuinfo_values(const char *const keys[], char values[][64], size_t n)
{
    for (size_t i = 0; i < n; i++)
        values[i][0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        size_t key_len = (size_t)(colon - line);
        while (key_len > 0 && isspace((unsigned char)line[key_len - 1]))
            key_len--;
        for (size_t i = 0; i < n; i++)
            if (!values[i][0] && strlen(keys[i]) == key_len && !strncmp(line, keys[i], key_len))
                pk_cpu_keep_string(values[i], sizeof values[i], colon + 1);
    }
    free(line);
    fclose(f);
}


/* ------------------------------------------------------- hwcap engine */

static uint64_t hwcap_word(const pk_cpu_state *s, unsigned word)
{
    return word == 1 ? s->info.hwcap : s->info.hwcap2;
}

/* Set bits of one hwcap word that no row names become "hwcap_bitN". */
static void add_unnamed_bits(pk_cpu_state *s, const pk_cpu_hwcap_row *rows, size_t n, unsigned word,
                             const char *prefix)
{
    uint64_t named = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].word == word)
            named |= rows[i].mask;
    uint64_t rest = hwcap_word(s, word) & ~named;
    for (unsigned bit = 0; bit < 64; bit++) {
        size_t k = s->info.unnamed_count;
        if (!(rest >> bit & 1u) || k >= PK_CPU_UNNAMED_MAX)
            continue;
        snprintf(s->unnamed_names[k], PK_CPU_UNNAMED_LEN, "%s_bit%u", prefix, bit);
        s->unnamed[k] = s->unnamed_names[k];
        s->info.unnamed_count = k + 1;
    }
}

void pk_cpu_hwcap_detect(pk_cpu_state *s, const pk_cpu_hwcap_row *rows, size_t n)
{
    for (size_t i = 0; i < n && i < PK_CPU_MAX_FEATURES; i++) {
        s->features[i].name = rows[i].name;
        s->features[i].present = (hwcap_word(s, rows[i].word) & rows[i].mask) != 0;
    }
    s->info.feature_count = n < PK_CPU_MAX_FEATURES ? n : PK_CPU_MAX_FEATURES;
    add_unnamed_bits(s, rows, n, 1, "hwcap");
    add_unnamed_bits(s, rows, n, 2, "hwcap2");
}

/* -------------------------------------------------------- public API */

static void detect(void)
{
    pk_cpu_info *info = &state.info;
    info->arch = PK_ARCH;
    info->source = pk_cpu_isa_source;
    read_auxv(&state);
    pk_cpu_isa_detect(&state);
    info->features = state.features;
    info->unnamed = state.unnamed;
}

const pk_cpu_info *pk_cpu_info_get(void)
{
    pthread_once(&detect_once, detect);
    return &state.info;
}

/* The feature row for NAME, or NULL. */
static const pk_cpu_feature *find_feature(const pk_cpu_info *info, const char *name)
{
    for (size_t i = 0; i < info->feature_count; i++)
        if (!strcmp(info->features[i].name, name))
            return &info->features[i];
    return NULL;
}

static bool is_unnamed_bit(const pk_cpu_info *info, const char *name)
{
    for (size_t i = 0; i < info->unnamed_count; i++)
        if (!strcmp(info->unnamed[i], name))
            return true;
    return false;
}

bool pk_cpu_has(const char *name)
{
    if (!name)
        return false;
    const pk_cpu_info *info = pk_cpu_info_get();
    const pk_cpu_feature *f = find_feature(info, name);
    return f ? f->present : is_unnamed_bit(info, name);
}

bool pk_cpu_known(const char *name)
{
    if (!name)
        return false;
    const pk_cpu_info *info = pk_cpu_info_get();
    return find_feature(info, name) || is_unnamed_bit(info, name);
}
