/* The document of one load run: JSON (portkit.load/1, docs/formats.md) or a
 * few text lines. */
#ifndef PK_LOAD_REPORT_H
#define PK_LOAD_REPORT_H

#include <stdio.h>

#include "load_run.h"
#include "load_sys.h"

typedef struct pk_load_report {
    const pk_load_kind *kind;
    const pk_load_options *opt;
    char started[40];       /* ISO-8601 UTC */
    double duration_s;
    const char *stopped;    /* "completed", "interrupted", "error" */
    const char *error;      /* why, when "error"; else NULL */
    double cpu_percent;     /* the agent's processes and threads, of one CPU */
    const pk_proc_stat *stat_before, *stat_after;
    pk_load_values params, achieved;
    size_t processes_left;
    int descriptors_left;   /* -1: unknown */
    bool adopts_orphans;    /* the agent reaps its orphaned descendants */
} pk_load_report;

/* Writes the report to out: PK_EXIT_OK, or PK_EXIT_ENV after one line
 * when the JSON writer failed. */
int pk_load_write_report(FILE *out, const pk_load_report *r);

#endif
