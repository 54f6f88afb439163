/* `portkit-target vdso bench`: nanoseconds per call of gettimeofday and
 * clock_gettime(CLOCK_MONOTONIC) through libc, through the vDSO entry point
 * directly and as a raw system call; the median of R repeats of N calls. The
 * paths alternate inside every repeat so that frequency changes and noise hit
 * all of them alike. N defaults to the field report's 500000.
 *
 * JSON, schema "portkit.vdso-bench/2":
 *   schema, agent        pk_json_begin_document
 *   present              the process has a vDSO
 *   process, compat      as in portkit.vdso/2
 *   soname, base         of the live vDSO (null without one)
 *   calls, repeat        N calls per repeat, R repeats
 *   functions[]          {name ("gettimeofday", "clock_gettime"), clock (null, "MONOTONIC"),
 *                         libc, vdso, syscall, speedup, libc_uses_vdso}
 *     libc               {ns_per_call (median), repeats_ns[R]}
 *     vdso               null without the vDSO entry, else {symbol, ns_per_call, repeats_ns[R]}
 *     syscall            {syscall (name of the system call), ns_per_call, repeats_ns[R]}
 *     speedup            syscall ns / vDSO ns, null without the vDSO entry
 *     libc_uses_vdso     libc's time is nearer the vDSO's than the system call's; false without
 *                        a vDSO; null when the two differ too little to tell (speed-up < 1.5)
 *   gettimeofday_loop    what N gettimeofday calls take along each path, the compat-vDSO
 *                        field report's experiment: {calls, vdso_total_us (null without
 *                        vDSO), syscall_total_us, libc_total_us, ratio (syscall / vDSO, null
 *                        without vDSO)}
 *   no_vdso              null, or as in portkit.vdso/2
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "pk_cli.h"
#include "pk_json.h"
#include "pk_options.h"
#include "pk_stats.h"
#include "vdso_calls.h"
#include "vdso_modes.h"
#include "vdso_usage.h"
#include "vdso_live.h"

#define DEFAULT_CALLS PK_FIELD_REPORT_CALLS
#define DEFAULT_REPEAT 5
#define MAX_CALLS 100000000
#define MAX_REPEAT 1000
#define MAX_TOTAL_CALLS 1000000000ull /* per path: beyond this a run takes hours */
#define WARMUP_CALLS 10000
/* Below this speed-up libc's figure cannot tell which path it takes. */
#define TELLING_SPEEDUP 1.5

enum { PATH_LIBC, PATH_VDSO, PATH_SYSCALL, NPATHS };
static const char *const path_names[NPATHS] = {"libc", "vdso", "syscall"};

typedef struct bench_path {
    pk_call_loop loop; /* NULL: this path does not exist here */
    uintptr_t entry;
    const char *label; /* vDSO symbol or system call name */
    double *repeats_ns;
    double median_ns;
} bench_path;

typedef struct bench_fn {
    const char *name;
    const char *clock;
    bench_path path[NPATHS];
} bench_fn;

enum { FN_GETTIMEOFDAY, FN_CLOCK_GETTIME, NFNS };

typedef struct bench_options {
    uint64_t calls, repeat;
    bool json;
} bench_options;

typedef struct bench {
    const bench_options *opt;
    pk_vdso_process proc;
    const pk_vdso_image *img;
    pk_no_vdso no_vdso;
    bench_fn fns[NFNS];
} bench;

static int parse_options(int argc, char **argv, bench_options *opt)
{
    static const struct option longopts[] = {
        {"calls", required_argument, NULL, 'n'}, {"repeat", required_argument, NULL, 'r'},
        {"json", no_argument, NULL, 'j'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int status = PK_CONTINUE;
    pk_options_start();
    int c;
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': status = pk_whole_number_option("vdso", "--calls", optarg, 1, MAX_CALLS, &opt->calls); break;
        case 'r': status = pk_whole_number_option("vdso", "--repeat", optarg, 1, MAX_REPEAT, &opt->repeat); break;
        case 'j': opt->json = true; break;
        case 'h': pk_vdso_usage(stdout); return PK_EXIT_OK;
        default: return pk_option_error("vdso", c, argv, longopts);
        }
    }
    if (status == PK_CONTINUE)
        status = pk_no_operands("vdso", argc, argv);
    if (status == PK_CONTINUE && opt->calls * opt->repeat > MAX_TOTAL_CALLS)
        status = pk_fail(PK_EXIT_USAGE, "vdso", "--calls %" PRIu64 " x --repeat %" PRIu64 " is more than %llu calls per path",
                         opt->calls, opt->repeat, MAX_TOTAL_CALLS);
    return status;
}

/* ---- the rows: which loop each path of each function runs ------------------------- */

static void set_path(bench_path *p, pk_call_loop loop, uintptr_t entry, const char *label)
{
    p->loop = loop;
    p->entry = entry;
    p->label = label;
}

/* On 32-bit targets libc's clock_gettime takes the time64 entry first (glibc
 * 2.34+), so the bench does too, and compares with the matching syscall. */
static void setup_clock_gettime(bench_fn *fn, const pk_vdso_entries *e)
{
    bool time64 = pk_loop_sys_clock_gettime64 && (!e || e->entry[PK_FN_CLOCK_GETTIME64] || !e->entry[PK_FN_CLOCK_GETTIME]);
    set_path(&fn->path[PATH_LIBC], pk_loop_libc_clock_gettime, 0, "clock_gettime");
    if (time64)
        set_path(&fn->path[PATH_SYSCALL], pk_loop_sys_clock_gettime64, 0, "clock_gettime64");
    else
        set_path(&fn->path[PATH_SYSCALL], pk_loop_sys_clock_gettime, 0, "clock_gettime");
    pk_time_fn_id id = time64 ? PK_FN_CLOCK_GETTIME64 : PK_FN_CLOCK_GETTIME;
    if (e && e->entry[id])
        set_path(&fn->path[PATH_VDSO], time64 ? pk_loop_vdso_clock_gettime64 : pk_loop_vdso_clock_gettime,
                 e->entry[id], e->symbol[id]);
}

static void setup_gettimeofday(bench_fn *fn, const pk_vdso_entries *e)
{
    set_path(&fn->path[PATH_LIBC], pk_loop_libc_gettimeofday, 0, "gettimeofday");
    set_path(&fn->path[PATH_SYSCALL], pk_loop_sys_gettimeofday, 0, "gettimeofday");
    if (e && e->entry[PK_FN_GETTIMEOFDAY])
        set_path(&fn->path[PATH_VDSO], pk_loop_vdso_gettimeofday, e->entry[PK_FN_GETTIMEOFDAY],
                 e->symbol[PK_FN_GETTIMEOFDAY]);
}

static int setup(bench *b)
{
    pk_vdso_entries entries;
    if (b->img)
        pk_vdso_resolve(b->img, &entries);
    b->fns[FN_GETTIMEOFDAY].name = "gettimeofday";
    setup_gettimeofday(&b->fns[FN_GETTIMEOFDAY], b->img ? &entries : NULL);
    b->fns[FN_CLOCK_GETTIME].name = "clock_gettime";
    b->fns[FN_CLOCK_GETTIME].clock = "MONOTONIC";
    setup_clock_gettime(&b->fns[FN_CLOCK_GETTIME], b->img ? &entries : NULL);
    for (int f = 0; f < NFNS; f++)
        for (int p = 0; p < NPATHS; p++)
            if (b->fns[f].path[p].loop && !(b->fns[f].path[p].repeats_ns = calloc(b->opt->repeat, sizeof(double))))
                return -1;
    return 0;
}

static void release(bench *b)
{
    for (int f = 0; f < NFNS; f++)
        for (int p = 0; p < NPATHS; p++)
            free(b->fns[f].path[p].repeats_ns);
}

/* ---- measuring ---------------------------------------------------------------------- */

static void measure(bench *b)
{
    uint64_t warmup = b->opt->calls < WARMUP_CALLS ? b->opt->calls : WARMUP_CALLS;
    for (int f = 0; f < NFNS; f++)
        for (int p = 0; p < NPATHS; p++)
            if (b->fns[f].path[p].loop)
                b->fns[f].path[p].loop(b->fns[f].path[p].entry, warmup);
    for (uint64_t r = 0; r < b->opt->repeat; r++)
        for (int f = 0; f < NFNS; f++)
            for (int p = 0; p < NPATHS; p++) {
                bench_path *path = &b->fns[f].path[p];
                if (path->loop)
                    path->repeats_ns[r] = pk_loop_ns_per_call(path->loop, path->entry, b->opt->calls);
            }
    for (int f = 0; f < NFNS; f++)
        for (int p = 0; p < NPATHS; p++)
            if (b->fns[f].path[p].loop)
                b->fns[f].path[p].median_ns = pk_median(b->fns[f].path[p].repeats_ns, (size_t)b->opt->repeat);
}

static double speedup(const bench_fn *fn)
{
    if (!fn->path[PATH_VDSO].loop)
        return NAN;
    return fn->path[PATH_SYSCALL].median_ns / fn->path[PATH_VDSO].median_ns;
}

typedef enum { USES_NO, USES_YES, USES_UNKNOWN } uses_vdso;

static uses_vdso libc_uses_vdso(const bench_fn *fn)
{
    if (!fn->path[PATH_VDSO].loop)
        return USES_NO;
    if (!(speedup(fn) >= TELLING_SPEEDUP))
        return USES_UNKNOWN;
    double libc = fn->path[PATH_LIBC].median_ns;
    double to_vdso = libc - fn->path[PATH_VDSO].median_ns, to_syscall = fn->path[PATH_SYSCALL].median_ns - libc;
    return to_vdso < to_syscall ? USES_YES : USES_NO;
}

static double total_us(const bench *b, int path)
{
    const bench_path *p = &b->fns[FN_GETTIMEOFDAY].path[path];
    return p->loop ? p->median_ns * (double)b->opt->calls / 1000.0 : NAN;
}

/* ---- output ----------------------------------------------------------------------- */

static void print_ns(FILE *out, const bench_path *p)
{
    if (p->loop)
        fprintf(out, " %9.1f", p->median_ns);
    else
        fprintf(out, " %9s", "-");
}

static void print_bench(FILE *out, const bench *b)
{
    static const char *const uses_text[] = {"no", "yes", "can't tell"};
    fprintf(out, "vDSO bench: %" PRIu64 " calls x %" PRIu64 " repeats, median ns per call\n", b->opt->calls,
            b->opt->repeat);
    fputs("  process: ", out);
    pk_vdso_process_print(out, &b->proc);
    fprintf(out, "\n  %-26s %9s %9s %9s %9s  %s\n", "FUNCTION", "LIBC", "VDSO", "SYSCALL", "SPEED-UP",
            "LIBC USES VDSO");
    for (int f = 0; f < NFNS; f++) {
        const bench_fn *fn = &b->fns[f];
        char name[64];
        if (fn->clock)
            snprintf(name, sizeof name, "%s(%s)", fn->name, fn->clock);
        else
            snprintf(name, sizeof name, "%s", fn->name);
        fprintf(out, "  %-26s", name);
        for (int p = 0; p < NPATHS; p++)
            print_ns(out, &fn->path[p]);
        if (fn->path[PATH_VDSO].loop)
            fprintf(out, " %8.1fx", speedup(fn));
        else
            fprintf(out, " %9s", "-");
        fprintf(out, "  %s\n", uses_text[libc_uses_vdso(fn)]);
    }
    fputs("  via", out);
    for (int f = 0; f < NFNS; f++)
        fprintf(out, "%s vDSO %s, syscall %s", f ? ";" : "",
                b->fns[f].path[PATH_VDSO].label ? b->fns[f].path[PATH_VDSO].label : "(none)",
                b->fns[f].path[PATH_SYSCALL].label);
    fprintf(out, "\n\n%" PRIu64 " gettimeofday calls (the compat-vDSO field report's loop has %u): ", b->opt->calls,
            PK_FIELD_REPORT_CALLS);
    if (b->img && b->fns[FN_GETTIMEOFDAY].path[PATH_VDSO].loop)
        fprintf(out, "%.0f us with the vDSO, %.0f us as system calls (%.1fx), %.0f us through libc\n",
                total_us(b, PATH_VDSO), total_us(b, PATH_SYSCALL), speedup(&b->fns[FN_GETTIMEOFDAY]),
                total_us(b, PATH_LIBC));
    else
        fprintf(out, "%.0f us as system calls, %.0f us through libc; there is no vDSO, so the vDSO column is empty\n",
                total_us(b, PATH_SYSCALL), total_us(b, PATH_LIBC));
    if (!b->img)
        pk_no_vdso_print(out, &b->no_vdso);
}

static void json_path(pk_json *j, const bench *b, const bench_path *p, int which)
{
    pk_json_key(j, path_names[which]);
    if (!p->loop) {
        pk_json_null(j);
        return;
    }
    pk_json_begin_object(j);
    if (which != PATH_LIBC)
        pk_json_kv_string(j, which == PATH_VDSO ? "symbol" : "syscall", p->label);
    pk_json_kv_double(j, "ns_per_call", p->median_ns);
    pk_json_key(j, "repeats_ns");
    pk_json_begin_array(j);
    for (uint64_t r = 0; r < b->opt->repeat; r++)
        pk_json_double(j, p->repeats_ns[r]);
    pk_json_end_array(j);
    pk_json_end_object(j);
}

static void json_fn(pk_json *j, const bench *b, const bench_fn *fn)
{
    pk_json_begin_object(j);
    pk_json_kv_string(j, "name", fn->name);
    pk_json_kv_string(j, "clock", fn->clock);
    for (int p = 0; p < NPATHS; p++)
        json_path(j, b, &fn->path[p], p);
    pk_json_kv_double(j, "speedup", speedup(fn));
    pk_json_key(j, "libc_uses_vdso");
    switch (libc_uses_vdso(fn)) {
    case USES_YES: pk_json_bool(j, true); break;
    case USES_NO: pk_json_bool(j, false); break;
    default: pk_json_null(j);
    }
    pk_json_end_object(j);
}

static int json_bench(FILE *out, const bench *b)
{
    pk_json j;
    pk_json_init(&j, out);
    pk_json_begin_document(&j, "portkit.vdso-bench/2");
    pk_vdso_identity_json(&j, &b->proc, b->img);
    pk_json_kv_uint(&j, "calls", b->opt->calls);
    pk_json_kv_uint(&j, "repeat", b->opt->repeat);
    pk_json_key(&j, "functions");
    pk_json_begin_array(&j);
    for (int f = 0; f < NFNS; f++)
        json_fn(&j, b, &b->fns[f]);
    pk_json_end_array(&j);
    pk_json_key(&j, "gettimeofday_loop");
    pk_json_begin_object(&j);
    pk_json_kv_uint(&j, "calls", b->opt->calls);
    pk_json_kv_double(&j, "vdso_total_us", total_us(b, PATH_VDSO));
    pk_json_kv_double(&j, "syscall_total_us", total_us(b, PATH_SYSCALL));
    pk_json_kv_double(&j, "libc_total_us", total_us(b, PATH_LIBC));
    pk_json_kv_double(&j, "ratio", speedup(&b->fns[FN_GETTIMEOFDAY]));
    pk_json_end_object(&j);
    if (b->img) {
        pk_json_key(&j, "no_vdso");
        pk_json_null(&j);
    } else {
        pk_no_vdso_json(&j, &b->no_vdso);
    }
    return pk_json_end_command(&j, "vdso");
}

int pk_vdso_bench(int argc, char **argv)
{
    bench_options opt = {.calls = DEFAULT_CALLS, .repeat = DEFAULT_REPEAT};
    int status = parse_options(argc, argv, &opt);
    if (status != PK_CONTINUE)
        return status;
    bench b = {.opt = &opt};
    pk_vdso_process_info(&b.proc);
    pk_vdso_live live;
    const char *error;
    if (pk_vdso_live_open(&live, &error) != 0)
        return pk_fail(PK_EXIT_ENV, "vdso", "the vDSO at 0x%" PRIx64 " cannot be read: %s", live.base, error);
    b.img = live.present ? &live.image : NULL;
    if (setup(&b) != 0) {
        release(&b);
        return pk_fail(PK_EXIT_ENV, "vdso", "out of memory");
    }
    if (!b.img)
        pk_no_vdso_measure(&b.no_vdso, &b.proc);
    measure(&b);
    status = PK_EXIT_OK;
    if (opt.json)
        status = json_bench(stdout, &b);
    else
        print_bench(stdout, &b);
    release(&b);
    return status;
}
