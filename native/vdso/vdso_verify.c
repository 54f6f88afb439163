/* `portkit-target vdso verify`: the vDSO and the kernel agree.
 *
 * For every (function, clock) row it interleaves raw system calls and vDSO
 * calls, syscall -> vDSO -> syscall, and checks syscall <= vDSO <= syscall:
 * both read the same timekeeper, so a vDSO reading outside its bracket means
 * the vDSO's copy or its clocksource read is wrong. clock_getres must give
 * the same resolution both ways.
 *
 * Coarse clocks: REALTIME_COARSE and MONOTONIC_COARSE return the time of the
 * last tick, which the kernel copies into the vDSO data inside the same
 * timekeeper update (the vDSO copy is finished before the syscall side's
 * sequence count is released). So the same non-strict order holds for them:
 * a syscall after a vDSO read never sees an older tick. What the kernel does
 * NOT guarantee is agreement between a coarse clock and its fine counterpart
 * (the coarse one lags by up to a tick, its clock_getres), nor that two reads
 * differ: equal readings are the rule, so only <= is checked, and the gap
 * reported for them is up to one tick. time() is the coarse wall-clock
 * second, so it is compared with the time system call (or, where there is
 * none, CLOCK_REALTIME_COARSE's second), never with the fine clock.
 *
 * What this proves: the vDSO's copy of the kernel's timekeeping agrees with
 * the system calls. It cannot prove that the clock itself is right (both
 * read the same timekeeper), and without a vDSO there is nothing to verify:
 * that is exit 3 (the environment cannot do it), not a failed check.
 *
 * JSON, schema "portkit.vdso-verify/2":
 *   schema, agent        pk_json_begin_document
 *   present              the process has a vDSO
 *   process, compat      as in portkit.vdso/2
 *   soname, base         of the live vDSO (null without one)
 *   iterations           interleaved samples per ordering check (--iterations)
 *   clock                the --clock filter (canonical name, "ID_<n>" for another id) or null
 *   checks[]             one per (function, clock):
 *     function           "clock_gettime", "clock_gettime64" (32-bit targets), "gettimeofday", "time",
 *                        "clock_getres", "clock_getres_time64" (32-bit targets); "vdso" for the
 *                        single absent check of a process without a vDSO
 *     clock, clock_id    "MONOTONIC", 1 (null for gettimeofday, time, vdso)
 *     clock_kind         "fine", "coarse", "cputime", or "other" for a --clock id outside the
 *                        table (null without a clock)
 *     symbol             the vDSO entry called ("__vdso_clock_gettime", "__kernel_clock_gettime"), or null
 *     syscall            the system call compared with (null for "vdso")
 *     status             "pass", "fail", "unsupported" (the kernel's clock_getres rejects the clock)
 *                        or "absent" (the vDSO exports no such function)
 *     samples            readings compared (1 for clock_getres)
 *     violations         vDSO readings outside [syscall before, syscall after] (getres: 1 if unequal)
 *     errors             calls that failed (vDSO returned an error the syscall did not)
 *     max_gap_ns         widest syscall..syscall bracket seen (getres: |vDSO - syscall|)
 *     worst_violation_ns how far the worst violating reading lay outside its bracket (0 if none)
 *     resolution_ns      clock_getres rows: the system call's resolution; otherwise null
 *     detail             why it failed, is absent or unsupported; null on pass
 *   summary              {pass, fail, unsupported, absent}: counts of checks
 *   ok                   there is a vDSO and no check failed (the exit code is 0 exactly then;
 *                        1 when a check failed, 3 without a vDSO)
 *   no_vdso              null, or as in portkit.vdso/2
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "pk_cli.h"
#include "pk_json.h"
#include "pk_options.h"
#include "vdso_calls.h"
#include "vdso_modes.h"
#include "vdso_usage.h"
#include "vdso_live.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

#define DEFAULT_ITERATIONS 10000
#define NOTHING_TO_VERIFY "this process has no vDSO, so there is nothing to verify"

typedef struct clock_row {
    const char *name;
    int id;
    const char *kind; /* fine: clocksource read; coarse: last tick; cputime: the kernel's, via fallback */
} clock_row;

static const clock_row clocks[] = {
    {"REALTIME", CLOCK_REALTIME, "fine"},
    {"MONOTONIC", CLOCK_MONOTONIC, "fine"},
    {"PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID, "cputime"},
    {"THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID, "cputime"},
    {"MONOTONIC_RAW", CLOCK_MONOTONIC_RAW, "fine"},
    {"REALTIME_COARSE", CLOCK_REALTIME_COARSE, "coarse"},
    {"MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE, "coarse"},
    {"BOOTTIME", CLOCK_BOOTTIME, "fine"},
    {"TAI", CLOCK_TAI, "fine"},
};
#define NCLOCKS (sizeof clocks / sizeof clocks[0])

/* Per clock functions first (grouped by clock), then the clockless ones. */
static const pk_time_fn_id clock_fns[] = {PK_FN_CLOCK_GETTIME, PK_FN_CLOCK_GETTIME64, PK_FN_CLOCK_GETRES,
                                          PK_FN_CLOCK_GETRES64};
static const pk_time_fn_id plain_fns[] = {PK_FN_GETTIMEOFDAY, PK_FN_TIME};
#define MAX_CHECKS (NCLOCKS * 4 + 2)

typedef struct verify_options {
    uint64_t iterations;
    const clock_row *clock; /* NULL: every clock */
    bool json;
} verify_options;

typedef struct check {
    const char *function;
    const char *syscall;
    const char *symbol;
    const clock_row *clock;
    const char *status;
    uint64_t samples, violations, errors;
    int64_t max_gap_ns, worst_violation_ns;
    bool has_resolution;
    int64_t resolution_ns;
    char detail[160];
} check;

typedef struct verification {
    const verify_options *opt;
    pk_vdso_process proc;
    const pk_vdso_image *img; /* NULL: no vDSO */
    pk_no_vdso no_vdso;
    check checks[MAX_CHECKS];
    size_t nchecks;
    unsigned pass, fail, unsupported, absent;
} verification;

/* ---- options ------------------------------------------------------------------ */

static const clock_row *find_clock(const char *name)
{
    if (!strncasecmp(name, "CLOCK_", 6))
        name += 6;
    for (size_t i = 0; i < NCLOCKS; i++)
        if (!strcasecmp(name, clocks[i].name))
            return &clocks[i];
    return NULL;
}

/* A numeric id names a known clock, or one outside the table (alarm clocks,
 * ids a newer kernel may add): the kernel decides whether it exists. */
static const clock_row *find_clock_id(const char *text)
{
    static char name[24];
    static clock_row other = {name, 0, "other"};
    int64_t id;
    if (!pk_parse_i64(text, 0, 1023, &id))
        return NULL;
    for (size_t i = 0; i < NCLOCKS; i++)
        if (clocks[i].id == id)
            return &clocks[i];
    snprintf(name, sizeof name, "ID_%d", (int)id);
    other.id = (int)id;
    return &other;
}

static int clock_option(const char *name, verify_options *opt)
{
    opt->clock = find_clock(name);
    if (!opt->clock)
        opt->clock = find_clock_id(name);
    if (!opt->clock)
        return pk_fail(PK_EXIT_USAGE, "vdso",
                       "unknown clock '%s' (known: REALTIME, MONOTONIC, PROCESS_CPUTIME_ID, THREAD_CPUTIME_ID, "
                       "MONOTONIC_RAW, REALTIME_COARSE, MONOTONIC_COARSE, BOOTTIME, TAI, or a clock id)",
                       name);
    int err = pk_sys_clock_getres_check(opt->clock->id);
    if (err && !strcmp(opt->clock->kind, "other"))
        return pk_fail(PK_EXIT_USAGE, "vdso", "clock id %d is not supported by this kernel (clock_getres: %s)",
                       opt->clock->id, strerror(-err));
    if (err)
        return pk_fail(PK_EXIT_USAGE, "vdso", "clock %s (id %d) is not supported by this kernel (clock_getres: %s)",
                       opt->clock->name, opt->clock->id, strerror(-err));
    return PK_CONTINUE;
}

static int parse_options(int argc, char **argv, verify_options *opt)
{
    static const struct option longopts[] = {
        {"iterations", required_argument, NULL, 'n'}, {"clock", required_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},             {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *clock_name = NULL;
    int status = PK_CONTINUE;
    pk_options_start();
    int c;
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            status = pk_whole_number_option("vdso", "--iterations", optarg, 1, 100000000, &opt->iterations);
            break;
        case 'c': clock_name = optarg; break;
        case 'j': opt->json = true; break;
        case 'h': pk_vdso_usage(stdout); return PK_EXIT_OK;
        default: return pk_option_error("vdso", c, argv, longopts);
        }
    }
    if (status == PK_CONTINUE)
        status = pk_no_operands("vdso", argc, argv);
    if (status == PK_CONTINUE && clock_name)
        status = clock_option(clock_name, opt);
    return status;
}

/* ---- running checks ------------------------------------------------------------- */

static void check_order(check *c, const pk_time_fn *fn, uintptr_t entry, int clock, uint64_t iterations)
{
    int vdso_error = 0;
    for (uint64_t i = 0; i < iterations; i++) {
        int64_t before, during, after;
        int r1 = fn->sys(clock, &before);
        int rv = fn->vdso(entry, clock, &during);
        int r2 = fn->sys(clock, &after);
        if (r1 || r2)
            continue; /* the reference failed: nothing to compare */
        if (rv) {
            c->errors++;
            vdso_error = rv;
            continue;
        }
        c->samples++;
        if (after - before > c->max_gap_ns)
            c->max_gap_ns = after - before;
        int64_t outside = during < before ? before - during : during > after ? during - after : 0;
        if (outside) {
            c->violations++;
            if (outside > c->worst_violation_ns)
                c->worst_violation_ns = outside;
        }
    }
    if (c->errors)
        snprintf(c->detail, sizeof c->detail, "the vDSO failed %" PRIu64 " of %" PRIu64 " calls (%s) where the system call succeeded",
                 c->errors, iterations, strerror(-vdso_error));
    else if (c->violations)
        snprintf(c->detail, sizeof c->detail, "%" PRIu64 " of %" PRIu64 " vDSO readings outside syscall <= vDSO <= syscall, the worst by %" PRId64 " ns",
                 c->violations, c->samples, c->worst_violation_ns);
    else if (c->samples == 0)
        snprintf(c->detail, sizeof c->detail, "the %s system call failed every time", fn->syscall);
}

static void check_resolution(check *c, const pk_time_fn *fn, uintptr_t entry, int clock)
{
    int64_t by_sys, by_vdso;
    int rs = fn->sys(clock, &by_sys);
    int rv = fn->vdso(entry, clock, &by_vdso);
    if (rs) {
        snprintf(c->detail, sizeof c->detail, "the %s system call failed: %s", fn->syscall, strerror(-rs));
        return;
    }
    c->has_resolution = true;
    c->resolution_ns = by_sys;
    if (rv) {
        c->errors = 1;
        snprintf(c->detail, sizeof c->detail, "the vDSO failed (%s) where the system call succeeded", strerror(-rv));
        return;
    }
    c->samples = 1;
    c->max_gap_ns = by_vdso > by_sys ? by_vdso - by_sys : by_sys - by_vdso;
    if (by_vdso != by_sys) {
        c->violations = 1;
        snprintf(c->detail, sizeof c->detail, "the vDSO says %" PRId64 " ns, the system call %" PRId64 " ns", by_vdso,
                 by_sys);
    }
}

static const char *status_of(const check *c)
{
    return c->errors || c->violations || c->samples == 0 ? "fail" : "pass";
}

static void count_status(verification *v, const char *status)
{
    unsigned *counter = !strcmp(status, "pass")   ? &v->pass
                        : !strcmp(status, "fail") ? &v->fail
                        : !strcmp(status, "absent") ? &v->absent
                                                  : &v->unsupported;
    (*counter)++;
}

static void run_check(verification *v, const pk_vdso_entries *entries, pk_time_fn_id id, const clock_row *clock)
{
    const pk_time_fn *fn = &pk_time_fns[id];
    check *c = &v->checks[v->nchecks++];
    *c = (check){.function = fn->name, .syscall = fn->syscall, .symbol = entries->symbol[id], .clock = clock};
    int clock_id = clock ? clock->id : 0;
    int unsupported = clock ? pk_sys_clock_getres_check(clock_id) : 0;
    if (unsupported) {
        c->status = "unsupported";
        snprintf(c->detail, sizeof c->detail, "the kernel rejects clock id %d: %s", clock_id, strerror(-unsupported));
    } else if (!entries->entry[id]) {
        c->status = "absent";
        snprintf(c->detail, sizeof c->detail, "the vDSO exports neither __vdso_%s nor __kernel_%s", fn->name, fn->name);
    } else {
        if (fn->resolution)
            check_resolution(c, fn, entries->entry[id], clock_id);
        else
            check_order(c, fn, entries->entry[id], clock_id, v->opt->iterations);
        c->status = status_of(c);
    }
    count_status(v, c->status);
}

/* Rows whose system call does not exist here (time64 on 64-bit) are skipped. */
static void run_clock_checks(verification *v, const pk_vdso_entries *entries, const clock_row *clock)
{
    for (size_t f = 0; f < sizeof clock_fns / sizeof clock_fns[0]; f++)
        if (pk_time_fns[clock_fns[f]].sys)
            run_check(v, entries, clock_fns[f], clock);
}

/* Rows whose system call does not exist here (time64 on 64-bit) are skipped;
 * --clock limits the run to that clock's rows. */
static void run_checks(verification *v)
{
    pk_vdso_entries entries;
    pk_vdso_resolve(v->img, &entries);
    if (v->opt->clock) {
        run_clock_checks(v, &entries, v->opt->clock);
        return;
    }
    for (size_t k = 0; k < NCLOCKS; k++)
        run_clock_checks(v, &entries, &clocks[k]);
    for (size_t f = 0; f < sizeof plain_fns / sizeof plain_fns[0]; f++)
        if (pk_time_fns[plain_fns[f]].sys)
            run_check(v, &entries, plain_fns[f], NULL);
}

static void record_no_vdso(verification *v)
{
    pk_no_vdso_measure(&v->no_vdso, &v->proc);
    check *c = &v->checks[v->nchecks++];
    *c = (check){.function = "vdso", .status = "absent"};
    snprintf(c->detail, sizeof c->detail, "%s", NOTHING_TO_VERIFY);
    count_status(v, c->status);
}

/* ---- output --------------------------------------------------------------------- */

static void print_check(FILE *out, const check *c)
{
    fprintf(out, "  %-20s %-19s %-11s", c->function, c->clock ? c->clock->name : "-", c->status);
    if (c->samples)
        fprintf(out, " %8" PRIu64 " %10" PRIu64 " %10" PRId64 " ns", c->samples, c->violations, c->max_gap_ns);
    if (c->has_resolution)
        fprintf(out, "  (resolution %" PRId64 " ns)", c->resolution_ns);
    fputc('\n', out);
    /* An absent function repeats for every clock: said once, below the table. */
    if (c->detail[0] && strcmp(c->status, "absent") != 0)
        fprintf(out, "      %s\n", c->detail);
}

/* "absent from this vDSO: clock_getres_time64, ..." with each function once. */
static void print_absent(FILE *out, const verification *v)
{
    const char *seen[MAX_CHECKS];
    size_t nseen = 0;
    for (size_t i = 0; i < v->nchecks; i++) {
        const check *c = &v->checks[i];
        bool known = false;
        for (size_t k = 0; k < nseen && !known; k++)
            known = seen[k] == c->function;
        if (strcmp(c->status, "absent") != 0 || known)
            continue;
        fprintf(out, "%s%s", nseen ? ", " : "  absent from this vDSO (no __vdso_ or __kernel_ entry): ", c->function);
        seen[nseen++] = c->function;
    }
    if (nseen)
        fputc('\n', out);
}

static void print_verification(FILE *out, const verification *v)
{
    if (!v->img) {
        fputs("vDSO verify: no vDSO, nothing to verify\n  process: ", out);
        pk_vdso_process_print(out, &v->proc);
        pk_no_vdso_print(out, &v->no_vdso);
    } else {
        fprintf(out, "vDSO verify: %s at 0x%" PRIx64 "\n  process: ",
                v->img->soname ? v->img->soname : "(no soname)", v->img->base);
        pk_vdso_process_print(out, &v->proc);
        fprintf(out, "  each check interleaves %" PRIu64 " readings: syscall <= vDSO <= syscall; "
                     "clock_getres must be equal\n\n"
                     "  %-20s %-19s %-11s %8s %10s %13s\n",
                v->opt->iterations, "FUNCTION", "CLOCK", "STATUS", "SAMPLES", "VIOLATIONS", "MAX GAP");
        for (size_t i = 0; i < v->nchecks; i++)
            print_check(out, &v->checks[i]);
        print_absent(out, v);
    }
    fprintf(out, "result: %u pass, %u fail, %u unsupported, %u absent\n", v->pass, v->fail, v->unsupported,
            v->absent);
}

static void json_check(pk_json *j, const check *c)
{
    pk_json_begin_object(j);
    pk_json_kv_string(j, "function", c->function);
    pk_json_kv_string(j, "clock", c->clock ? c->clock->name : NULL);
    pk_json_key(j, "clock_id");
    if (c->clock)
        pk_json_int(j, c->clock->id);
    else
        pk_json_null(j);
    pk_json_kv_string(j, "clock_kind", c->clock ? c->clock->kind : NULL);
    pk_json_kv_string(j, "symbol", c->symbol);
    pk_json_kv_string(j, "syscall", c->syscall);
    pk_json_kv_string(j, "status", c->status);
    pk_json_kv_uint(j, "samples", c->samples);
    pk_json_kv_uint(j, "violations", c->violations);
    pk_json_kv_uint(j, "errors", c->errors);
    pk_json_kv_int(j, "max_gap_ns", c->max_gap_ns);
    pk_json_kv_int(j, "worst_violation_ns", c->worst_violation_ns);
    pk_json_key(j, "resolution_ns");
    if (c->has_resolution)
        pk_json_int(j, c->resolution_ns);
    else
        pk_json_null(j);
    pk_json_kv_string(j, "detail", c->detail[0] ? c->detail : NULL);
    pk_json_end_object(j);
}

static int json_verification(FILE *out, const verification *v)
{
    pk_json j;
    pk_json_init(&j, out);
    pk_json_begin_document(&j, "portkit.vdso-verify/2");
    pk_vdso_identity_json(&j, &v->proc, v->img);
    pk_json_kv_uint(&j, "iterations", v->opt->iterations);
    pk_json_kv_string(&j, "clock", v->opt->clock ? v->opt->clock->name : NULL);
    pk_json_key(&j, "checks");
    pk_json_begin_array(&j);
    for (size_t i = 0; i < v->nchecks; i++)
        json_check(&j, &v->checks[i]);
    pk_json_end_array(&j);
    pk_json_key(&j, "summary");
    pk_json_begin_object(&j);
    pk_json_kv_uint(&j, "pass", v->pass);
    pk_json_kv_uint(&j, "fail", v->fail);
    pk_json_kv_uint(&j, "unsupported", v->unsupported);
    pk_json_kv_uint(&j, "absent", v->absent);
    pk_json_end_object(&j);
    pk_json_kv_bool(&j, "ok", v->img && v->fail == 0);
    if (v->img) {
        pk_json_key(&j, "no_vdso");
        pk_json_null(&j);
    } else {
        pk_no_vdso_json(&j, &v->no_vdso);
    }
    return pk_json_end_command(&j, "vdso");
}

int pk_vdso_verify(int argc, char **argv)
{
    verify_options opt = {.iterations = DEFAULT_ITERATIONS};
    int status = parse_options(argc, argv, &opt);
    if (status != PK_CONTINUE)
        return status;
    verification *v = calloc(1, sizeof *v);
    if (!v)
        return pk_fail(PK_EXIT_ENV, "vdso", "out of memory");
    v->opt = &opt;
    pk_vdso_process_info(&v->proc);
    pk_vdso_live live;
    const char *error;
    if (pk_vdso_live_open(&live, &error) != 0) {
        free(v);
        return pk_fail(PK_EXIT_ENV, "vdso", "the vDSO at 0x%" PRIx64 " cannot be read: %s", live.base, error);
    }
    if (live.present) {
        v->img = &live.image;
        run_checks(v);
    } else {
        record_no_vdso(v);
    }
    if (opt.json) {
        status = json_verification(stdout, v);
    } else {
        print_verification(stdout, v);
        status = PK_EXIT_OK;
    }
    if (status == PK_EXIT_OK && !v->img)
        status = pk_fail(PK_EXIT_ENV, "vdso", NOTHING_TO_VERIFY);
    else if (status == PK_EXIT_OK && v->fail)
        status = PK_EXIT_FINDINGS;
    free(v);
    return status;
}
