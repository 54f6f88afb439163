/* The help text of `portkit-target rt`, one for both its modes. */
#ifndef RT_USAGE_H
#define RT_USAGE_H

#include <stdio.h>

void rt_usage(FILE *out);

#endif
