/* `portkit-target crc32c`: the CRC32C of files (like sha256sum), checking a
 * list of them (like sha256sum -c), and a benchmark of every implementation
 * this CPU can run. The library is include/portkit/crc32c.h.
 *
 *   portkit-target crc32c [FILE...]           "e3069283  FILE" per file; - or none: stdin
 *   portkit-target crc32c --check LIST        "FILE: OK" / "FILE: FAILED" per line of LIST
 *   portkit-target crc32c --bench [--sizes 64,4k,...] [--seconds S]
 *
 * The CRC is printed as the usual big-endian hex of the 32-bit value
 * ("123456789" -> e3069283). Exit codes: 0 ok; 1 a --check mismatch;
 * 2 bad usage, an unreadable file or a malformed --check line (each reported
 * as one line on stderr; the other files are still done).
 *
 * JSON (--json), schema "portkit.crc32c/1" (sums and --check):
 *   schema, agent       pk_json_begin_document
 *   implementation      what pk_crc32c() uses here (pk_crc32c_implementation())
 *   files[]             {path, crc32c ("0x" + 8 hex digits), bytes}; with --check also
 *                       expected ("0x" + 8 hex digits), ok (bool) and list_line (the line
 *                       of LIST that named the file)
 *   errors[]            {path, line (the line of LIST for --check, else null), message}
 *                       for unreadable files and malformed --check lines; an unreadable
 *                       file named by LIST also has list_line
 *   The verdicts of --check in LIST's order are files[] and the errors[] with a
 *   list_line, ordered by list_line.
 *   check               null, or for --check {list, ok, failed, unreadable, malformed} (counts)
 *
 * JSON, schema "portkit.crc32c-bench/1" (--bench):
 *   schema, agent       pk_json_begin_document
 *   implementation      what pk_crc32c() uses here, as above (may carry a note on
 *                       PORTKIT_CRC32C)
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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_json.h"
#include "portkit/crc32c.h"

#define CMD "crc32c"
#define SCHEMA "portkit.crc32c/1"
#define SCHEMA_BENCH "portkit.crc32c-bench/1"
#define CHUNK (1u << 20)
#define MAX_SIZES 32
#define MAX_SIZE ((size_t)1 << 30)
#define MAX_IMPLS 32
#define MIN_REPEATS 3
#define MAX_REPEATS 101
#define SAMPLE_NS 2000000.0 /* a repeat spans at least 2 ms */
#define DEFAULT_SECONDS 0.2

static const size_t default_sizes[] = {64, 4096, 65536, 1u << 20, 64u << 20};

typedef struct crc_options {
    bool json, bench;
    const char *check; /* --check LIST */
    size_t sizes[MAX_SIZES];
    size_t size_count;
    double seconds;
} crc_options;

static void usage(FILE *out)
{
    fputs("usage: portkit-target crc32c [--json] [FILE...]\n"
          "       portkit-target crc32c [--json] --check LIST\n"
          "       portkit-target crc32c [--json] --bench [--sizes N,N,...] [--seconds S]\n"
          "\n"
          "CRC32C (Castagnoli: iSCSI, SCTP, ext4, Btrfs) of each FILE (- or none: stdin),\n"
          "printed like sha256sum: '<8 hex digits>  FILE'.\n"
          "\n"
          "options:\n"
          "  -c, --check LIST  verify the lines of LIST ('-': stdin), written in that format\n"
          "  --bench           throughput of every implementation this CPU can run\n"
          "  --sizes N,N,...   bench buffer sizes in bytes, k/m suffixes for KiB/MiB\n"
          "                    (default 64,4k,64k,1m,64m)\n"
          "  --seconds S       bench time per implementation and size (default 0.2)\n"
          "  --json            machine-readable output (schemas " SCHEMA ", " SCHEMA_BENCH ")\n"
          "  -h, --help        show this help\n"
          "\n"
          "exit codes: 0 ok, 1 a --check mismatch, 2 bad usage, an unreadable file or a\n"
          "malformed --check line (the other files are still done)\n"
          "\n"
          "example: portkit-target crc32c image.bin > image.crc && portkit-target crc32c --check image.crc\n",
          out);
}

/* ------------------------------------------------------------- options */

/* One size: decimal digits with an optional k/K (KiB) or m/M (MiB). */
static bool parse_size(const char *s, size_t *out)
{
    char digits[32];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, s, n + 1);
    unsigned shift = 0;
    char last = digits[n - 1];
    if (last == 'k' || last == 'K')
        shift = 10;
    else if (last == 'm' || last == 'M')
        shift = 20;
    if (shift)
        digits[n - 1] = '\0';
    int64_t v;
    if (!pk_parse_i64(digits, 1, (int64_t)(MAX_SIZE >> shift), &v))
        return false;
    *out = (size_t)v << shift;
    return true;
}

static int parse_sizes(crc_options *opt, char *list)
{
    opt->size_count = 0;
    char *save = NULL;
    for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
        if (opt->size_count == MAX_SIZES)
            return pk_fail(PK_EXIT_USAGE, CMD, "--sizes: more than %d sizes", MAX_SIZES);
        if (!parse_size(s, &opt->sizes[opt->size_count++]))
            return pk_fail(PK_EXIT_USAGE, CMD, "--sizes: '%s' is not a size from 1 byte to 1 GiB (e.g. 64, 4k, 1m)", s);
    }
    if (opt->size_count == 0)
        return pk_fail(PK_EXIT_USAGE, CMD, "--sizes needs at least one size");
    return -1;
}

static int parse_seconds(crc_options *opt, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0 && v <= 3600))
        return pk_fail(PK_EXIT_USAGE, CMD, "--seconds: '%s' is not a number of seconds in (0, 3600]", s);
    opt->seconds = v;
    return -1;
}

/* Returns -1 to go on, or the exit code to stop with. */
static int parse_options(int argc, char **argv, crc_options *opt)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},          {"check", required_argument, NULL, 'c'},
        {"bench", no_argument, NULL, 'b'},         {"sizes", required_argument, NULL, 's'},
        {"seconds", required_argument, NULL, 't'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool sizes_given = false, seconds_given = false;
    opterr = 0;
    optind = 1;
    int c, status = -1;
    /* Files and options may mix, as in sha256sum. */
    while (status < 0 && (c = getopt_long(argc, argv, ":hc:", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': opt->json = true; break;
        case 'c': opt->check = optarg; break;
        case 'b': opt->bench = true; break;
        case 's': sizes_given = true; status = parse_sizes(opt, optarg); break;
        case 't': seconds_given = true; status = parse_seconds(opt, optarg); break;
        case 'h': usage(stdout); return PK_EXIT_OK;
        case ':':
            return pk_fail(PK_EXIT_USAGE, CMD, "option '%s' needs a value (try --help)", argv[optind - 1]);
        default:
            return pk_fail(PK_EXIT_USAGE, CMD, "unknown option '%s' (try --help)", argv[optind - 1]);
        }
    }
    if (status >= 0)
        return status;
    if (opt->bench && opt->check)
        return pk_fail(PK_EXIT_USAGE, CMD, "--bench and --check do not go together");
    if ((sizes_given || seconds_given) && !opt->bench)
        return pk_fail(PK_EXIT_USAGE, CMD, "%s is a --bench option", sizes_given ? "--sizes" : "--seconds");
    if ((opt->bench || opt->check) && optind < argc)
        return pk_fail(PK_EXIT_USAGE, CMD, "unexpected argument '%s' with %s (try --help)", argv[optind],
                       opt->bench ? "--bench" : "--check");
    return -1;
}

/* --------------------------------------------------------------- files */

static char chunk[CHUNK];

/* The CRC32C and length of a file ("-": stdin), read in 1 MiB chunks. On
 * failure returns false with errno set. */
static bool crc_file(const char *path, uint32_t *crc, uint64_t *bytes)
{
    bool is_stdin = !strcmp(path, "-");
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    uint32_t c = 0;
    uint64_t n = 0;
    bool ok = true;
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            ok = false;
            break;
        }
        if (got == 0)
            break;
        c = pk_crc32c(c, chunk, (size_t)got);
        n += (uint64_t)got;
    }
    int saved = errno;
    if (!is_stdin)
        close(fd);
    errno = saved;
    *crc = c;
    *bytes = n;
    return ok;
}

static void hex32(char out[11], uint32_t v)
{
    snprintf(out, 11, "0x%08x", (unsigned)v);
}

/* Collects the JSON document's arrays while the text goes out line by line. */
typedef struct report {
    const crc_options *opt;
    pk_json j;
    FILE *errors;      /* the errors[] items, written to a buffer, copied at the end */
    char *errors_text;
    size_t errors_len;
    pk_json je;
    unsigned ok, failed, unreadable, malformed;
} report;

static void report_begin(report *r, const crc_options *opt)
{
    memset(r, 0, sizeof *r);
    r->opt = opt;
    if (!opt->json)
        return;
    pk_json_init(&r->j, stdout);
    pk_json_begin_document(&r->j, SCHEMA);
    pk_json_kv_string(&r->j, "implementation", pk_crc32c_implementation());
    pk_json_key(&r->j, "files");
    pk_json_begin_array(&r->j);
    r->errors = open_memstream(&r->errors_text, &r->errors_len);
    if (r->errors)
        pk_json_init(&r->je, r->errors);
}

/* line: of LIST, when the error is that line; list_line: of LIST, when the
 * error is about the file that line names (0: neither). */
static void report_error(report *r, const char *path, long line, long list_line, const char *message)
{
    if (line > 0)
        pk_fail(PK_EXIT_USAGE, CMD, "%s:%ld: %s", path, line, message);
    else
        pk_fail(PK_EXIT_USAGE, CMD, "%s: %s", path, message);
    if (!r->opt->json || !r->errors)
        return;
    pk_json_begin_object(&r->je);
    pk_json_kv_string(&r->je, "path", path);
    if (line > 0)
        pk_json_kv_int(&r->je, "line", line);
    else
        pk_json_kv_string(&r->je, "line", NULL);
    pk_json_kv_string(&r->je, "message", message);
    if (list_line > 0)
        pk_json_kv_int(&r->je, "list_line", list_line);
    pk_json_end_object(&r->je);
}

/* expected and list_line: with --check, the CRC and the line of LIST that named the file. */
static void report_file(report *r, const char *path, uint32_t crc, uint64_t bytes, const uint32_t *expected,
                        long list_line)
{
    if (!r->opt->json) {
        if (expected)
            printf("%s: %s\n", path, crc == *expected ? "OK" : "FAILED");
        else
            printf("%08x  %s\n", (unsigned)crc, path);
        return;
    }
    char hex[11];
    pk_json_begin_object(&r->j);
    pk_json_kv_string(&r->j, "path", path);
    hex32(hex, crc);
    pk_json_kv_string(&r->j, "crc32c", hex);
    pk_json_kv_uint(&r->j, "bytes", bytes);
    if (expected) {
        hex32(hex, *expected);
        pk_json_kv_string(&r->j, "expected", hex);
        pk_json_kv_bool(&r->j, "ok", crc == *expected);
        pk_json_kv_int(&r->j, "list_line", list_line);
    }
    pk_json_end_object(&r->j);
}

/* Closes the document: the buffered errors[] are copied in verbatim (they
 * are complete JSON values written by pk_json, separated by its commas). */
static void report_end(report *r)
{
    if (!r->opt->json)
        return;
    pk_json_end_array(&r->j);
    pk_json_key(&r->j, "errors");
    pk_json_begin_array(&r->j);
    if (r->errors) {
        fclose(r->errors);
        fwrite(r->errors_text, 1, r->errors_len, stdout);
        free(r->errors_text);
    }
    pk_json_end_array(&r->j);
    if (r->opt->check) {
        pk_json_key(&r->j, "check");
        pk_json_begin_object(&r->j);
        pk_json_kv_string(&r->j, "list", r->opt->check);
        pk_json_kv_uint(&r->j, "ok", r->ok);
        pk_json_kv_uint(&r->j, "failed", r->failed);
        pk_json_kv_uint(&r->j, "unreadable", r->unreadable);
        pk_json_kv_uint(&r->j, "malformed", r->malformed);
        pk_json_end_object(&r->j);
    } else {
        pk_json_kv_string(&r->j, "check", NULL);
    }
    pk_json_end_document(&r->j);
}

static int sum_files(const crc_options *opt, int count, char **paths)
{
    static char *stdin_only[] = {"-"};
    if (count == 0) {
        count = 1;
        paths = stdin_only;
    }
    report r;
    report_begin(&r, opt);
    for (int i = 0; i < count; i++) {
        uint32_t crc;
        uint64_t bytes;
        if (crc_file(paths[i], &crc, &bytes)) {
            report_file(&r, paths[i], crc, bytes, NULL, 0);
        } else {
            r.unreadable++;
            report_error(&r, paths[i], 0, 0, strerror(errno));
        }
    }
    report_end(&r);
    return r.unreadable ? PK_EXIT_USAGE : PK_EXIT_OK;
}

/* A line of a list: 8 hex digits, then two spaces (or a space and '*', the
 * binary-mode mark of sha256sum), then the name to the end of the line. */
static bool parse_line(char *line, uint32_t *crc, char **name)
{
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    if (n < 11 || line[8] != ' ' || (line[9] != ' ' && line[9] != '*'))
        return false;
    uint32_t v = 0;
    for (int i = 0; i < 8; i++) {
        char ch = line[i];
        unsigned d;
        if (ch >= '0' && ch <= '9')
            d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            d = (unsigned)(ch - 'A' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    *crc = v;
    *name = line + 10;
    return true;
}

static int check_list(const crc_options *opt)
{
    bool is_stdin = !strcmp(opt->check, "-");
    FILE *list = is_stdin ? stdin : fopen(opt->check, "re");
    if (!list)
        return pk_fail(PK_EXIT_USAGE, CMD, "%s: %s", opt->check, strerror(errno));
    report r;
    report_begin(&r, opt);
    char *line = NULL;
    size_t cap = 0;
    long number = 0;
    int read_error = 0;
    while (getline(&line, &cap, list) != -1) {
        number++;
        if (line[strspn(line, "\r\n")] == '\0')
            continue; /* blank lines are not entries */
        uint32_t expected, crc;
        uint64_t bytes;
        char *name;
        if (!parse_line(line, &expected, &name)) {
            r.malformed++;
            report_error(&r, opt->check, number, 0, "improperly formatted CRC32C line");
        } else if (!crc_file(name, &crc, &bytes)) {
            r.unreadable++;
            report_error(&r, name, 0, number, strerror(errno));
            if (!opt->json)
                printf("%s: FAILED open or read\n", name);
        } else {
            *(crc == expected ? &r.ok : &r.failed) += 1;
            report_file(&r, name, crc, bytes, &expected, number);
        }
    }
    if (ferror(list))
        read_error = errno ? errno : EIO;
    free(line);
    if (!is_stdin)
        fclose(list);
    if (read_error) {
        r.unreadable++;
        report_error(&r, opt->check, 0, 0, strerror(read_error));
    } else if (r.ok + r.failed + r.unreadable == 0 && r.malformed == 0) {
        r.malformed++;
        report_error(&r, opt->check, 0, 0, "no properly formatted CRC32C lines found");
    }
    report_end(&r);
    if (!opt->json && r.failed)
        fprintf(stderr, "portkit-target " CMD ": WARNING: %u computed checksum%s did NOT match\n", r.failed,
                r.failed == 1 ? "" : "s");
    if (r.unreadable || r.malformed)
        return PK_EXIT_USAGE;
    return r.failed ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}

/* --------------------------------------------------------------- bench */

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double sorted[MAX_REPEATS];
    memcpy(sorted, v, (size_t)n * sizeof *v);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
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

static void bench_text(const crc_options *opt, const char *selected, const char *const *names, size_t nimpl,
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

static void bench_json(const crc_options *opt, const char *selected, const char *const *names, size_t nimpl,
                       cell *cells)
{
    pk_json j;
    pk_json_init(&j, stdout);
    pk_json_begin_document(&j, SCHEMA_BENCH);
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
    pk_json_end_document(&j);
}

static int bench(const crc_options *opt)
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
        return pk_fail(PK_EXIT_ENV, CMD, "cannot allocate %zu bytes for the bench buffer", largest);
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
            row[i].median = median(row[i].repeats, nrep);
        }
    }
    if (opt->json)
        bench_json(opt, selected, names, nimpl, cells);
    else
        bench_text(opt, selected, names, nimpl, cells);
    free(buf);
    free(cells);
    free(repeats);
    return PK_EXIT_OK;
}

/* ------------------------------------------------------------- command */

int pk_cmd_crc32c(int argc, char **argv)
{
    crc_options opt = {.seconds = DEFAULT_SECONDS};
    opt.size_count = sizeof default_sizes / sizeof default_sizes[0];
    memcpy(opt.sizes, default_sizes, sizeof default_sizes);
    int stop = parse_options(argc, argv, &opt);
    if (stop >= 0)
        return stop;
    int status = opt.bench ? bench(&opt) : opt.check ? check_list(&opt) : sum_files(&opt, argc - optind, argv + optind);
    if (fflush(stdout) != 0)
        return pk_fail(PK_EXIT_ENV, CMD, "cannot write the output");
    return status;
}
