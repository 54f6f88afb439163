/* Option parsing of `portkit-target load`, apart from running, so that
 * tests can check it. */
#ifndef PK_CMD_LOAD_H
#define PK_CMD_LOAD_H

#include "load_run.h"

/* Parses `load KIND [options]` (argv[0] "load") into *kind and *opt, with
 * the kind's defaults filled in: PK_CONTINUE, or the exit code after --help
 * or one error line. *kind is NULL for `load noop`. */
int pk_load_parse(int argc, char **argv, const pk_load_kind **kind, pk_load_options *opt);

#endif
