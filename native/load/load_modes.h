/* The modes of `portkit-target load`: its kinds, one file each
 * (load_kind_KIND.c), which cmd_load.c's mode table lists, and the option
 * parsing apart from running, so that tests can check it. */
#ifndef PK_LOAD_MODES_H
#define PK_LOAD_MODES_H

#include "load_run.h"

extern const pk_load_kind pk_load_kind_cpu;   /* load_kind_cpu.c */
extern const pk_load_kind pk_load_kind_spawn; /* load_kind_spawn.c */
extern const pk_load_kind pk_load_kind_io;    /* load_kind_io.c */
extern const pk_load_kind pk_load_kind_net;   /* load_kind_net.c */
extern const pk_load_kind pk_load_kind_mem;   /* load_kind_mem.c */
extern const pk_load_kind pk_load_kind_msg;   /* load_kind_msg.c */
extern const pk_load_kind pk_load_kind_cmd;   /* load_kind_cmd.c */

/* Parses `load KIND [options]` (argv[0] "load") into *kind and *opt, with
 * the kind's defaults filled in: PK_CONTINUE, or the exit code after --help
 * or one error line. *kind is NULL for `load noop`. */
int pk_load_parse(int argc, char **argv, const pk_load_kind **kind, pk_load_options *opt);

#endif
