/* One way for a command to have modes, as rtla dispatches its tools: a table
 * of (name, handler, one-line help). The agent's commands (tools/
 * portkit-target.c), vdso's list/verify/bench, rt's measure/sysinfo,
 * crc32c's sums/check/bench and load's kinds are all such tables; the mode
 * is argv[1] (crc32c: chosen by its flags, which it keeps for sha256sum's
 * sake). Error lines and the usage's list come from the table, so they name
 * the same modes in the same words everywhere. */
#ifndef PK_MODES_H
#define PK_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct pk_mode {
    const char *name;
    /* Gets argv with argv[0] = name and returns an exit code (pk_cli.h). */
    int (*run)(int argc, char **argv);
    const char *help; /* one line, for the usage */
    /* What a handler shared by several modes tells them apart by (load:
     * the kind); NULL otherwise. */
    const void *data;
    /* Left out of the names an error line lists (load noop, an internal
     * helper); still in the usage. */
    bool unlisted;
} pk_mode;

typedef struct pk_modes {
    const char *cmd;  /* the command, as error lines name it ("vdso") */
    const char *noun; /* "mode", or "kind" for load */
    const pk_mode *modes;
    size_t count;
    /* The mode run when argv[1] is absent or an option ("vdso" = list,
     * "rt" = measure), with argv as it is; NULL when a mode must be named. */
    const pk_mode *fallback;
    /* Whether a word that names no mode also goes to the fallback (rt,
     * whose measuring mode reports it as an unexpected argument) instead of
     * being an unknown mode. */
    bool words_to_fallback;
    void (*usage)(FILE *out); /* the command's help: --help without a mode */
} pk_modes;

#define PK_MODE_COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* The mode named name, or NULL. */
const pk_mode *pk_modes_find(const pk_modes *m, const char *name);

/* Which mode argv asks for: PK_CONTINUE with *mode set and *shift the argv
 * words to skip (1 past a mode's name, 0 for the fallback), or the exit
 * code after --help (usage on stdout) or one error line:
 *   portkit-target vdso: unknown mode 'x': list, verify or bench (try --help)
 *   portkit-target load: the kind of load comes first: cpu, ... or cmd (try --help) */
int pk_modes_select(const pk_modes *m, int argc, char **argv, const pk_mode **mode, int *shift);

/* pk_modes_select, then the mode's handler: the command's exit code. */
int pk_modes_run(const pk_modes *m, int argc, char **argv);

/* "list, verify or bench": the listed modes' names, into buf. */
const char *pk_modes_names(const pk_modes *m, char *buf, size_t size);

/* One "  NAME  HELP" line per mode, the names padded to width columns. */
void pk_modes_usage(FILE *out, const pk_modes *m, int width);

#endif
