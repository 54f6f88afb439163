#include "pk_modes.h"

#include <string.h>

#include "pk_cli.h"
#include "pk_options.h"

const pk_mode *pk_modes_find(const pk_modes *m, const char *name)
{
    for (size_t i = 0; i < m->count; i++)
        if (!strcmp(name, m->modes[i].name))
            return &m->modes[i];
    return NULL;
}

const char *pk_modes_names(const pk_modes *m, char *buf, size_t size)
{
    size_t listed = 0, used = 0;
    for (size_t i = 0; i < m->count; i++)
        listed += !m->modes[i].unlisted;
    buf[0] = '\0';
    for (size_t i = 0, n = 0; i < m->count && used < size; i++) {
        if (m->modes[i].unlisted)
            continue;
        const char *sep = n == 0 ? "" : n + 1 == listed ? " or " : ", ";
        int w = snprintf(buf + used, size - used, "%s%s", sep, m->modes[i].name);
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
    return buf;
}

static bool is_help(const char *word)
{
    return !strcmp(word, "--help") || !strcmp(word, "-h");
}

int pk_modes_select(const pk_modes *m, int argc, char **argv, const pk_mode **mode, int *shift)
{
    char names[256];
    *mode = NULL;
    *shift = 0;
    if (argc >= 2 && argv[1][0] != '-' && (*mode = pk_modes_find(m, argv[1]))) {
        *shift = 1;
        return PK_CONTINUE;
    }
    if (m->fallback && (argc < 2 || argv[1][0] == '-' || m->words_to_fallback)) {
        *mode = m->fallback;
        return PK_CONTINUE;
    }
    if (argc >= 2 && is_help(argv[1]) && m->usage) {
        m->usage(stdout);
        return PK_EXIT_OK;
    }
    pk_modes_names(m, names, sizeof names);
    if (argc < 2 || argv[1][0] == '-')
        return pk_fail(PK_EXIT_USAGE, m->cmd, "the %s of %s comes first: %s (try --help)", m->noun, m->cmd, names);
    return pk_fail(PK_EXIT_USAGE, m->cmd, "unknown %s '%s': %s (try --help)", m->noun, argv[1], names);
}

int pk_modes_run(const pk_modes *m, int argc, char **argv)
{
    const pk_mode *mode;
    int shift;
    int status = pk_modes_select(m, argc, argv, &mode, &shift);
    if (status != PK_CONTINUE)
        return status;
    return mode->run(argc - shift, argv + shift);
}

void pk_modes_usage(FILE *out, const pk_modes *m, int width)
{
    for (size_t i = 0; i < m->count; i++)
        fprintf(out, "  %-*s %s\n", width, m->modes[i].name, m->modes[i].help);
}
