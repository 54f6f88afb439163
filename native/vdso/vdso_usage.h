/* The help text of `portkit-target vdso`, which every mode prints for --help. */
#ifndef PK_VDSO_USAGE_H
#define PK_VDSO_USAGE_H

#include <stdio.h>

void pk_vdso_usage(FILE *out);

#endif
