/* Calling the time functions three ways: through the vDSO entry point found
 * by name, as a raw system call, and through libc. Each vDSO function is a
 * row of pk_time_fns; verify and bench work from these rows. */
#ifndef PK_VDSO_CALLS_H
#define PK_VDSO_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "vdso_elf.h"

typedef enum pk_time_fn_id {
    PK_FN_CLOCK_GETTIME,   /* the native ABI: 32-bit time_t on 32-bit targets */
    PK_FN_CLOCK_GETTIME64, /* the time64 ABI of 32-bit targets */
    PK_FN_GETTIMEOFDAY,
    PK_FN_TIME,
    PK_FN_CLOCK_GETRES,
    PK_FN_CLOCK_GETRES64,
    PK_FN_COUNT
} pk_time_fn_id;

/* A reading normalised to nanoseconds. Both return 0 or a negative errno. */
typedef int (*pk_sys_read)(int clock, int64_t *ns);
typedef int (*pk_vdso_read)(uintptr_t entry, int clock, int64_t *ns);

typedef struct pk_time_fn {
    const char *name;    /* the vDSO exports __vdso_<name> or __kernel_<name> */
    const char *syscall; /* the system call it replaces (or is compared with) */
    bool resolution;     /* returns a resolution: compared for equality, not order */
    pk_sys_read sys;     /* NULL: no such system call on this architecture */
    pk_vdso_read vdso;
} pk_time_fn;

extern const pk_time_fn pk_time_fns[PK_FN_COUNT];

/* Entry points of the live vDSO; 0 where it does not export the function. */
typedef struct pk_vdso_entries {
    uintptr_t entry[PK_FN_COUNT];
    const char *symbol[PK_FN_COUNT]; /* the name found, e.g. "__kernel_clock_gettime" */
} pk_vdso_entries;

/* Looks every row up by name (only FUNC symbols count). */
void pk_vdso_resolve(const pk_vdso_image *img, pk_vdso_entries *entries);

/* Raw clock_getres system call: 0 when the kernel accepts the clock. */
int pk_sys_clock_getres_check(int clock);

/* Tight loops of n calls for the bench; `entry` is used by the vDSO loops. */
typedef void (*pk_call_loop)(uintptr_t entry, uint64_t n);

void pk_loop_libc_gettimeofday(uintptr_t entry, uint64_t n);
void pk_loop_libc_clock_gettime(uintptr_t entry, uint64_t n); /* CLOCK_MONOTONIC */
void pk_loop_vdso_gettimeofday(uintptr_t entry, uint64_t n);
void pk_loop_vdso_clock_gettime(uintptr_t entry, uint64_t n);
void pk_loop_vdso_clock_gettime64(uintptr_t entry, uint64_t n);
/* NULL where the system call does not exist on this architecture. */
extern const pk_call_loop pk_loop_sys_gettimeofday;
extern const pk_call_loop pk_loop_sys_clock_gettime;
extern const pk_call_loop pk_loop_sys_clock_gettime64;

/* Nanoseconds per call of one run of `loop`. */
double pk_loop_ns_per_call(pk_call_loop loop, uintptr_t entry, uint64_t n);

#endif
