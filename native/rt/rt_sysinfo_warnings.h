/* The one-line warnings of rt sysinfo: each fact that makes wake-ups late
 * or the measurement less telling, with what to do about it. */
#ifndef RT_SYSINFO_WARNINGS_H
#define RT_SYSINFO_WARNINGS_H

#include "rt_sysinfo.h"

/* Fills s->warnings from the facts collected in s. */
void rt_sysinfo_warn_all(rt_sysinfo *s);

#endif
