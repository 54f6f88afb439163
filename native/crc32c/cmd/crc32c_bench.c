/* `portkit-target crc32c --bench`: throughput of every implementation this
 * CPU can run.
 *
 * JSON, schema "portkit.crc32c-bench/1":
 *   schema, agent       pk_json_begin_document
 *   implementation      what pk_crc32c() uses here (pk_crc32c_implementation(); may
 *                       carry a note on PORTKIT_CRC32C)
 *   selected            the bare name of that implementation
 *   implementations[]   every implementation this CPU can run, slowest first
 *   sizes[]             buffer sizes in bytes
 *   seconds             the time budget of each (implementation, size) measurement
 *   results[]           {implementation, size, calls (per repeat), ns_per_call (median
 *                       over repeats), gb_per_s (size / median, 1e9 bytes/s),
 *                       repeats[] (ns per call of each repeat)}
 *
 * The bench measures as bench/crc32c/bench_impls.c does: for each size the
 * implementations take turns on the same buffer, repeat after repeat; each
 * repeat times a number of calls calibrated to span at least 2 ms; the median
 * over repeats is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c_modes.h"
#include "pk_cli.h"
#include "pk_json.h"
#include "pk_stats.h"
#include "portkit/crc32c.h"

#define MAX_IMPLS 32
#define MIN_REPEATS 3
#define MAX_REPEATS 101
#define SAMPLE_NS 2000000.0 /* a repeat spans at least 2 ms */

typedef struct cell {
    long calls;      /* per repeat, calibrated to span SAMPLE_NS */
    double *repeats; /* ns per call */
    int nrepeats;
    double median;
} cell;

static volatile uint32_t sink;

/* Nanoseconds per call over `calls` calls. */
static double time_calls(pk_crc32c_fn fn, const uint8_t *buf, size_t len, long calls)
{
    uint32_t c = sink;
    uint64_t t = pk_now_ns();
    for (long i = 0; i < calls; i++)
        c = fn(c, buf, len);
    uint64_t dt = pk_now_ns() - t;
    sink = c;
    return (double)dt / (double)calls;
}

/* Doubles the number of calls until a sample spans SAMPLE_NS; returns the ns
 * a sample takes. */
static double calibrate(pk_crc32c_fn fn, const uint8_t *buf, size_t len, long *calls)
{
    long n = 1;
    for (;;) {
        double per = time_calls(fn, buf, len, n);
        if (per * (double)n >= SAMPLE_NS || n >= (1L << 30)) {
            *calls = n;
            return per * (double)n;
        }
        n *= 2;
    }
}

/* "64 B", "4 KiB", "1 MiB", or the byte count when it is not a whole unit. */
static void size_label(char *out, size_t cap, size_t size)
{
    if (size >= (1u << 20) && size % (1u << 20) == 0)
        snprintf(out, cap, "%zu MiB", size >> 20);
    else if (size >= 1024 && size % 1024 == 0)
        snprintf(out, cap, "%zu KiB", size >> 10);
    else
        snprintf(out, cap, "%zu B", size);
}

/* The implementation's name without the note on PORTKIT_CRC32C. */
static void selected_name(char *out, size_t cap)
{
    const char *full = pk_crc32c_implementation();
    size_t n = strcspn(full, " ");
    snprintf(out, cap, "%.*s", (int)n, full);
}

static void bench_text(const pk_crc32c_options *opt, const char *selected, const char *const *names, size_t nimpl,
                       cell *cells)
{
    printf("implementation: %s\n", pk_crc32c_implementation());
    printf("measured: median of the repeats, each at least 2 ms of calls; GB/s = 1e9 bytes/s\n");
    for (int table = 0; table < 2; table++) {
        printf("\n%-20s", table == 0 ? "GB/s" : "ns per call");
        for (size_t s = 0; s < opt->size_count; s++) {
            char label[32];
            size_label(label, sizeof label, opt->sizes[s]);
            printf(" %12s", label);
        }
        putchar('\n');
        for (size_t i = 0; i < nimpl; i++) {
            bool sel = !strcmp(names[i], selected);
            printf("%c %-18s", sel ? '*' : ' ', names[i]);
            for (size_t s = 0; s < opt->size_count; s++) {
                const cell *c = &cells[s * nimpl + i];
                if (table == 0)
                    printf(" %12.2f", (double)opt->sizes[s] / c->median);
                else
                    printf(" %12.1f", c->median);
            }
            putchar('\n');
        }
    }
    printf("\n* selected by the dispatcher\n");
}

/* PK_EXIT_OK, or PK_EXIT_ENV when the document could not be written whole. */
static int bench_json(const pk_crc32c_options *opt, const char *selected, const char *const *names, size_t nimpl,
                      cell *cells)
{
    pk_json j;
    pk_json_init(&j, stdout);
    pk_json_begin_document(&j, PK_CRC32C_SCHEMA_BENCH);
    pk_json_kv_string(&j, "implementation", pk_crc32c_implementation());
    pk_json_kv_string(&j, "selected", selected);
    pk_json_key(&j, "implementations");
    pk_json_begin_array(&j);
    for (size_t i = 0; i < nimpl; i++)
        pk_json_string(&j, names[i]);
    pk_json_end_array(&j);
    pk_json_key(&j, "sizes");
    pk_json_begin_array(&j);
    for (size_t s = 0; s < opt->size_count; s++)
        pk_json_uint(&j, opt->sizes[s]);
    pk_json_end_array(&j);
    pk_json_kv_double(&j, "seconds", opt->seconds);
    pk_json_key(&j, "results");
    pk_json_begin_array(&j);
    for (size_t i = 0; i < nimpl; i++) {
        for (size_t s = 0; s < opt->size_count; s++) {
            const cell *c = &cells[s * nimpl + i];
            pk_json_begin_object(&j);
            pk_json_kv_string(&j, "implementation", names[i]);
            pk_json_kv_uint(&j, "size", opt->sizes[s]);
            pk_json_kv_int(&j, "calls", c->calls);
            pk_json_kv_double(&j, "ns_per_call", c->median);
            pk_json_kv_double(&j, "gb_per_s", (double)opt->sizes[s] / c->median);
            pk_json_key(&j, "repeats");
            pk_json_begin_array(&j);
            for (int r = 0; r < c->nrepeats; r++)
                pk_json_double(&j, c->repeats[r]);
            pk_json_end_array(&j);
            pk_json_end_object(&j);
        }
    }
    pk_json_end_array(&j);
    return pk_json_end_command(&j, PK_CRC32C_CMD);
}

int pk_crc32c_run_bench(const pk_crc32c_options *opt)
{
    const char *names[MAX_IMPLS];
    pk_crc32c_fn fns[MAX_IMPLS];
    size_t nimpl = 0;
    for (const char *const *n = pk_crc32c_implementations(); *n && nimpl < MAX_IMPLS; n++) {
        fns[nimpl] = pk_crc32c_get(*n);
        if (fns[nimpl])
            names[nimpl++] = *n;
    }
    char selected[64];
    selected_name(selected, sizeof selected);

    size_t largest = 0;
    for (size_t s = 0; s < opt->size_count; s++)
        largest = opt->sizes[s] > largest ? opt->sizes[s] : largest;
    uint8_t *buf = malloc(largest);
    cell *cells = calloc(opt->size_count * nimpl, sizeof *cells);
    double *repeats = calloc(opt->size_count * nimpl * MAX_REPEATS, sizeof *repeats);
    if (!buf || !cells || !repeats) {
        free(buf);
        free(cells);
        free(repeats);
        return pk_fail(PK_EXIT_ENV, PK_CRC32C_CMD, "cannot allocate %zu bytes for the bench buffer", largest);
    }
    for (size_t i = 0; i < largest; i++)
        buf[i] = (uint8_t)(i * 131 + 7);

    for (size_t s = 0; s < opt->size_count; s++) {
        size_t len = opt->sizes[s];
        cell *row = &cells[s * nimpl];
        /* Enough repeats to fill the time budget of the slowest, within bounds. */
        double slowest = 0;
        for (size_t i = 0; i < nimpl; i++) {
            row[i].repeats = &repeats[(s * nimpl + i) * MAX_REPEATS];
            double ns = calibrate(fns[i], buf, len, &row[i].calls);
            slowest = ns > slowest ? ns : slowest;
        }
        double want = opt->seconds * 1e9 / slowest;
        int nrep = want < MIN_REPEATS ? MIN_REPEATS : want > MAX_REPEATS ? MAX_REPEATS : (int)want;
        for (int r = 0; r < nrep; r++)
            for (size_t i = 0; i < nimpl; i++)
                row[i].repeats[r] = time_calls(fns[i], buf, len, row[i].calls);
        for (size_t i = 0; i < nimpl; i++) {
            row[i].nrepeats = nrep;
            row[i].median = pk_median(row[i].repeats, (size_t)nrep);
        }
    }
    int status = PK_EXIT_OK;
    if (opt->json)
        status = bench_json(opt, selected, names, nimpl, cells);
    else
        bench_text(opt, selected, names, nimpl, cells);
    free(buf);
    free(cells);
    free(repeats);
    return status;
}
