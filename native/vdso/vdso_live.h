/* The vDSO of this very process, and what to say when there is none. */
#ifndef PK_VDSO_LIVE_H
#define PK_VDSO_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pk_json.h"
#include "vdso_elf.h"

/* The process around the vDSO: which kernel it runs on. */
typedef struct pk_vdso_process {
    char kernel_machine[65]; /* uname -m */
    char kernel_release[65]; /* uname -r */
    bool compat;             /* a 32-bit process on a 64-bit kernel */
} pk_vdso_process;

void pk_vdso_process_info(pk_vdso_process *proc);
/* "i686 ILP32 process on kernel x86_64 6.18.44 (compat: 32-bit process on a 64-bit kernel)" */
void pk_vdso_process_print(FILE *out, const pk_vdso_process *proc);
/* "process": {...} and "compat": bool */
void pk_vdso_process_json(pk_json *j, const pk_vdso_process *proc);
/* The fields verify and bench documents open with: present, process, compat,
 * soname and base of the live vDSO (img NULL: there is none). */
void pk_vdso_identity_json(pk_json *j, const pk_vdso_process *proc, const pk_vdso_image *img);

typedef struct pk_vdso_live {
    bool present;            /* AT_SYSINFO_EHDR is not 0 */
    uint64_t base;
    uint64_t size;
    const char *size_source; /* "/proc/self/maps" or "program headers" */
    pk_vdso_image image;
} pk_vdso_live;

/* Finds and parses the vDSO the kernel mapped into this process. Returns 0
 * (live->present says whether there is one), or -1 with *error when the
 * kernel's image cannot be read. */
int pk_vdso_live_open(pk_vdso_live *live, const char **error);

/* Writes the live image to path atomically, as the host's writer does: a
 * temporary file beside it (path.tmp.PID), written, flushed and fsync'ed,
 * then renamed over path; on failure the temporary file is removed. Returns
 * 0, or -1 with *error naming the step, e.g. "cannot fsync its temporary
 * file: Input/output error", or "is a directory (give a file name)" (valid
 * until the next call). */
int pk_vdso_live_dump(const pk_vdso_live *live, const char *path, const char **error);

/* What a missing vDSO costs here, and why it may be missing. */
#define PK_FIELD_REPORT_CALLS 500000u /* the compat-vDSO field report's gettimeofday loop */
#define PK_NO_VDSO_MESSAGE "No vDSO: every gettimeofday is a system call"

typedef struct pk_no_vdso {
    uint64_t measured_calls;
    double syscall_ns;    /* ns per gettimeofday system call, measured here */
    double loop_total_us; /* what PK_FIELD_REPORT_CALLS such calls take */
    const char *hints[2];
    int nhints;
} pk_no_vdso;

void pk_no_vdso_measure(pk_no_vdso *report, const pk_vdso_process *proc);
void pk_no_vdso_print(FILE *out, const pk_no_vdso *report);
/* "no_vdso": {..., "gettimeofday_loop": {calls, syscall_total_us}, ...} */
void pk_no_vdso_json(pk_json *j, const pk_no_vdso *report);

#endif
