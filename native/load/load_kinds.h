/* The kinds of `portkit-target load`, one file each; cmd_load.c picks one. */
#ifndef PK_LOAD_KINDS_H
#define PK_LOAD_KINDS_H

#include "load_run.h"

extern const pk_load_kind pk_load_cpu;   /* load_cpu.c */
extern const pk_load_kind pk_load_spawn; /* load_spawn.c */
extern const pk_load_kind pk_load_io;    /* load_io.c */
extern const pk_load_kind pk_load_net;   /* load_net.c */
extern const pk_load_kind pk_load_mem;   /* load_mem.c */
extern const pk_load_kind pk_load_msg;   /* load_msg.c */
extern const pk_load_kind pk_load_cmd;   /* load_cmd.c */

#endif
