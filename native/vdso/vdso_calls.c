/* The three ways to ask the time (vdso_calls.h). The structures are the
 * kernel's own (linux/time_types.h), not libc's: libc's struct timespec
 * changes with _TIME_BITS, the kernel ABI of each entry point does not. */
#include "vdso_calls.h"

#include <elf.h>
#include <errno.h>
#include <linux/time_types.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "pk_cli.h"

#define NS_PER_SEC 1000000000LL

/* The vDSO entry points' C signatures, as the kernel defines them. */
typedef int (*vdso_gettime_fn)(int clock, struct __kernel_old_timespec *ts);
typedef int (*vdso_gettime64_fn)(int clock, struct __kernel_timespec *ts);
typedef int (*vdso_gettimeofday_fn)(struct __kernel_old_timeval *tv, void *tz);
typedef __kernel_old_time_t (*vdso_time_fn)(__kernel_old_time_t *t);

static int64_t ts_ns(int64_t sec, int64_t nsec) { return sec * NS_PER_SEC + nsec; }

/* syscall() returns -1 and sets errno; the vDSO returns -errno itself. */
static int sys_status(long r) { return r == -1 ? -errno : 0; }

/* ---- raw system calls ---------------------------------------------------- */

static int sys_clock_gettime(int clock, int64_t *ns)
{
    struct __kernel_old_timespec ts;
    int r = sys_status(syscall(SYS_clock_gettime, clock, &ts));
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}

static int sys_clock_getres(int clock, int64_t *ns)
{
    struct __kernel_old_timespec ts;
    int r = sys_status(syscall(SYS_clock_getres, clock, &ts));
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}

#ifdef SYS_clock_gettime64
static int sys_clock_gettime64(int clock, int64_t *ns)
{
    struct __kernel_timespec ts;
    int r = sys_status(syscall(SYS_clock_gettime64, clock, &ts));
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}
#define SYS_CLOCK_GETTIME64 sys_clock_gettime64
#else
#define SYS_CLOCK_GETTIME64 NULL
#endif

#ifdef SYS_clock_getres_time64
static int sys_clock_getres64(int clock, int64_t *ns)
{
    struct __kernel_timespec ts;
    int r = sys_status(syscall(SYS_clock_getres_time64, clock, &ts));
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}
#define SYS_CLOCK_GETRES64 sys_clock_getres64
#else
#define SYS_CLOCK_GETRES64 NULL
#endif

static int sys_gettimeofday(int clock, int64_t *ns)
{
    (void)clock;
    struct __kernel_old_timeval tv;
    int r = sys_status(syscall(SYS_gettimeofday, &tv, NULL));
    if (r == 0)
        *ns = ts_ns(tv.tv_sec, (int64_t)tv.tv_usec * 1000);
    return r;
}

/* time() is the tick-updated wall-clock second. Where there is no time system
 * call (arm EABI, arm64, mips n64) its equal is CLOCK_REALTIME_COARSE's
 * second, never the fine CLOCK_REALTIME, which runs ahead within a tick. */
static int sys_time(int clock, int64_t *ns)
{
    (void)clock;
#ifdef SYS_time
    long t = syscall(SYS_time, NULL);
    if (t == -1)
        return -errno;
    *ns = ts_ns(t, 0);
    return 0;
#else
    int64_t coarse;
    int r = sys_clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
    if (r == 0)
        *ns = coarse / NS_PER_SEC * NS_PER_SEC;
    return r;
#endif
}

int pk_sys_clock_getres_check(int clock)
{
    int64_t ns;
    return sys_clock_getres(clock, &ns);
}

/* ---- vDSO entry points ----------------------------------------------------- */

static int vdso_clock_gettime(uintptr_t entry, int clock, int64_t *ns)
{
    struct __kernel_old_timespec ts;
    int r = ((vdso_gettime_fn)entry)(clock, &ts);
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}

static int vdso_clock_gettime64(uintptr_t entry, int clock, int64_t *ns)
{
    struct __kernel_timespec ts;
    int r = ((vdso_gettime64_fn)entry)(clock, &ts);
    if (r == 0)
        *ns = ts_ns(ts.tv_sec, ts.tv_nsec);
    return r;
}

static int vdso_gettimeofday(uintptr_t entry, int clock, int64_t *ns)
{
    (void)clock;
    struct __kernel_old_timeval tv;
    int r = ((vdso_gettimeofday_fn)entry)(&tv, NULL);
    if (r == 0)
        *ns = ts_ns(tv.tv_sec, (int64_t)tv.tv_usec * 1000);
    return r;
}

static int vdso_time(uintptr_t entry, int clock, int64_t *ns)
{
    (void)clock;
    *ns = ts_ns(((vdso_time_fn)entry)(NULL), 0);
    return 0;
}

/* clock_getres has the same signatures as clock_gettime. */
#define vdso_clock_getres vdso_clock_gettime
#define vdso_clock_getres64 vdso_clock_gettime64

/* The time64 rows exist only where the time64 system calls do (32-bit). */
const pk_time_fn pk_time_fns[PK_FN_COUNT] = {
    [PK_FN_CLOCK_GETTIME] = {"clock_gettime", "clock_gettime", false, sys_clock_gettime, vdso_clock_gettime},
    [PK_FN_CLOCK_GETTIME64] = {"clock_gettime64", "clock_gettime64", false, SYS_CLOCK_GETTIME64,
                               vdso_clock_gettime64},
    [PK_FN_GETTIMEOFDAY] = {"gettimeofday", "gettimeofday", false, sys_gettimeofday, vdso_gettimeofday},
#ifdef SYS_time
    [PK_FN_TIME] = {"time", "time", false, sys_time, vdso_time},
#else
    [PK_FN_TIME] = {"time", "clock_gettime(CLOCK_REALTIME_COARSE)", false, sys_time, vdso_time},
#endif
    [PK_FN_CLOCK_GETRES] = {"clock_getres", "clock_getres", true, sys_clock_getres, vdso_clock_getres},
    [PK_FN_CLOCK_GETRES64] = {"clock_getres_time64", "clock_getres_time64", true, SYS_CLOCK_GETRES64,
                              vdso_clock_getres64},
};

/* x86, arm, mips, riscv, loongarch name entries __vdso_*; arm64, powerpc
 * and s390 name them __kernel_*. Trying both needs no per-arch table. */
static const char *const entry_prefixes[] = {"__vdso_", "__kernel_"};

void pk_vdso_resolve(const pk_vdso_image *img, pk_vdso_entries *entries)
{
    for (int f = 0; f < PK_FN_COUNT; f++) {
        entries->entry[f] = 0;
        entries->symbol[f] = NULL;
        for (size_t p = 0; p < sizeof entry_prefixes / sizeof entry_prefixes[0]; p++) {
            char name[64];
            pk_vdso_symbol sym;
            snprintf(name, sizeof name, "%s%s", entry_prefixes[p], pk_time_fns[f].name);
            if (pk_vdso_find_symbol(img, name, NULL, &sym) && sym.type == STT_FUNC) {
                entries->entry[f] = (uintptr_t)sym.address;
                entries->symbol[f] = sym.name;
                break;
            }
        }
    }
}

/* ---- loops for the bench ------------------------------------------------- */

/* Keeps the compiler from dropping calls whose results are unused. */
static volatile int64_t sink;

void pk_loop_libc_gettimeofday(uintptr_t entry, uint64_t n)
{
    (void)entry;
    struct timeval tv = {0};
    for (uint64_t i = 0; i < n; i++)
        gettimeofday(&tv, NULL);
    sink = tv.tv_usec;
}

void pk_loop_libc_clock_gettime(uintptr_t entry, uint64_t n)
{
    (void)entry;
    struct timespec ts = {0};
    for (uint64_t i = 0; i < n; i++)
        clock_gettime(CLOCK_MONOTONIC, &ts);
    sink = ts.tv_nsec;
}

void pk_loop_vdso_gettimeofday(uintptr_t entry, uint64_t n)
{
    vdso_gettimeofday_fn fn = (vdso_gettimeofday_fn)entry;
    struct __kernel_old_timeval tv = {0};
    for (uint64_t i = 0; i < n; i++)
        fn(&tv, NULL);
    sink = tv.tv_usec;
}

void pk_loop_vdso_clock_gettime(uintptr_t entry, uint64_t n)
{
    vdso_gettime_fn fn = (vdso_gettime_fn)entry;
    struct __kernel_old_timespec ts = {0};
    for (uint64_t i = 0; i < n; i++)
        fn(CLOCK_MONOTONIC, &ts);
    sink = ts.tv_nsec;
}

void pk_loop_vdso_clock_gettime64(uintptr_t entry, uint64_t n)
{
    vdso_gettime64_fn fn = (vdso_gettime64_fn)entry;
    struct __kernel_timespec ts = {0};
    for (uint64_t i = 0; i < n; i++)
        fn(CLOCK_MONOTONIC, &ts);
    sink = ts.tv_nsec;
}

static void loop_sys_gettimeofday(uintptr_t entry, uint64_t n)
{
    (void)entry;
    struct __kernel_old_timeval tv = {0};
    for (uint64_t i = 0; i < n; i++)
        syscall(SYS_gettimeofday, &tv, NULL);
    sink = tv.tv_usec;
}

static void loop_sys_clock_gettime(uintptr_t entry, uint64_t n)
{
    (void)entry;
    struct __kernel_old_timespec ts = {0};
    for (uint64_t i = 0; i < n; i++)
        syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    sink = ts.tv_nsec;
}

const pk_call_loop pk_loop_sys_gettimeofday = loop_sys_gettimeofday;
const pk_call_loop pk_loop_sys_clock_gettime = loop_sys_clock_gettime;

#ifdef SYS_clock_gettime64
static void loop_sys_clock_gettime64(uintptr_t entry, uint64_t n)
{
    (void)entry;
    struct __kernel_timespec ts = {0};
    for (uint64_t i = 0; i < n; i++)
        syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &ts);
    sink = ts.tv_nsec;
}
const pk_call_loop pk_loop_sys_clock_gettime64 = loop_sys_clock_gettime64;
#else
const pk_call_loop pk_loop_sys_clock_gettime64 = NULL;
#endif

double pk_loop_ns_per_call(pk_call_loop loop, uintptr_t entry, uint64_t n)
{
    uint64_t start = pk_now_ns();
    loop(entry, n);
    uint64_t end = pk_now_ns();
    return (double)(end - start) / (double)n;
}
