/* `portkit-target crc32c [FILE...]` and `--check LIST`: the CRC32C of files
 * (like sha256sum) and checking a list of them (like sha256sum -c).
 *
 * JSON (--json), schema "portkit.crc32c/1":
 *   schema, agent       pk_json_begin_document
 *   implementation      what pk_crc32c() uses here (pk_crc32c_implementation())
 *   files[]             {path, crc32c ("0x" + 8 hex digits), bytes}; with --check also
 *                       expected ("0x" + 8 hex digits), ok (bool) and list_line (the line
 *                       of LIST that named the file)
 *   errors[]            {path, line (the line of LIST for --check, else null), message}
 *                       for unreadable files and malformed --check lines (a NUL byte makes
 *                       a line malformed: no file name holds one), and for a LIST without
 *                       any well-formed line; an unreadable file named by LIST also has
 *                       list_line
 *   The verdicts of --check in LIST's order are files[] and the errors[] with a
 *   list_line, ordered by list_line.
 *   check               null, or for --check {list, ok, failed, unreadable, malformed} (counts)
 *
 * stderr has one line per unreadable file; malformed lines are summed up in
 * one line at the end ("LIST: 3 lines are improperly formatted (lines 2, 5
 * and 9)", or "LIST: no properly formatted CRC32C lines found" when no line
 * is), and so are mismatches ("LIST: 1 of 3 computed checksums did not
 * match"), as sha256sum -c does. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32c_modes.h"
#include "pk_cli.h"
#include "pk_json.h"
#include "portkit/crc32c.h"

#define CHUNK (1u << 20)

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
    const pk_crc32c_options *opt;
    pk_json j;
    FILE *errors;      /* the errors[] items, written to a buffer, copied at the end */
    char *errors_text;
    size_t errors_len;
    pk_json je;
    unsigned ok, failed, unreadable, malformed;
    long malformed_lines[3]; /* the first malformed lines of LIST, for the summary */
} report;

#define NO_ERRORS_BUFFER "cannot hold the errors[] of the JSON document"

/* PK_EXIT_OK, or PK_EXIT_ENV after its line when there is no memory to hold
 * errors[] until the end: then nothing is written, no file is read. */
static int report_begin(report *r, const pk_crc32c_options *opt)
{
    memset(r, 0, sizeof *r);
    r->opt = opt;
    if (!opt->json)
        return PK_EXIT_OK;
    r->errors = open_memstream(&r->errors_text, &r->errors_len);
    if (!r->errors)
        return pk_fail(PK_EXIT_ENV, PK_CRC32C_CMD, NO_ERRORS_BUFFER ": %s", strerror(errno));
    pk_json_init(&r->je, r->errors);
    pk_json_init(&r->j, stdout);
    pk_json_begin_document(&r->j, PK_CRC32C_SCHEMA);
    pk_json_kv_string(&r->j, "implementation", pk_crc32c_implementation());
    pk_json_key(&r->j, "files");
    pk_json_begin_array(&r->j);
    return PK_EXIT_OK;
}

/* An item of errors[] (JSON only). line: of LIST, when the error is that
 * line; list_line: of LIST, when the error is about the file that line names
 * (0: neither). */
static void record_error(report *r, const char *path, long line, long list_line, const char *message)
{
    if (!r->opt->json)
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

/* An error of a file: its line on stderr, and its item of errors[]. */
static void report_error(report *r, const char *path, long list_line, const char *message)
{
    pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "%s: %s", path, message);
    record_error(r, path, 0, list_line, message);
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
 * are complete JSON values written by pk_json, separated by its commas, one
 * level deep). PK_EXIT_OK, or PK_EXIT_ENV when the document could not be
 * written whole. */
static int report_end(report *r)
{
    if (!r->opt->json)
        return PK_EXIT_OK;
    /* Growing the buffer may have failed on the way (a memory stream fails
     * for want of memory only): errors[] would be short, so the document is
     * left unfinished. */
    bool lost = ferror(r->errors) != 0;
    lost |= fclose(r->errors) != 0;
    if (lost) {
        free(r->errors_text);
        return pk_fail(PK_EXIT_ENV, PK_CRC32C_CMD, NO_ERRORS_BUFFER ": %s", strerror(ENOMEM));
    }
    pk_json_end_array(&r->j);
    pk_json_key(&r->j, "errors");
    pk_json_begin_array(&r->j);
    if (!pk_json_error(&r->j))
        fwrite(r->errors_text, 1, r->errors_len, stdout);
    free(r->errors_text);
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
    return pk_json_end_command(&r->j, PK_CRC32C_CMD);
}

int pk_crc32c_sum_files(const pk_crc32c_options *opt, int count, char **paths)
{
    static char *stdin_only[] = {"-"};
    if (count == 0) {
        count = 1;
        paths = stdin_only;
    }
    report r;
    int status = report_begin(&r, opt);
    if (status != PK_EXIT_OK)
        return status;
    for (int i = 0; i < count; i++) {
        uint32_t crc;
        uint64_t bytes;
        if (crc_file(paths[i], &crc, &bytes)) {
            report_file(&r, paths[i], crc, bytes, NULL, 0);
        } else {
            r.unreadable++;
            report_error(&r, paths[i], 0, strerror(errno));
        }
    }
    status = report_end(&r);
    if (status != PK_EXIT_OK)
        return status;
    return r.unreadable ? PK_EXIT_USAGE : PK_EXIT_OK;
}

/* A line of a list, n bytes: 8 hex digits, then two spaces (or a space and
 * '*', the binary-mode mark of sha256sum), then the name to the end of the
 * line. A NUL byte makes it malformed: no file name holds one. */
static bool parse_line(char *line, size_t n, uint32_t *crc, char **name)
{
    if (memchr(line, '\0', n))
        return false;
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

/* How messages name LIST: "-" is standard input, as in sha256sum. */
static const char *list_name(const pk_crc32c_options *opt)
{
    return strcmp(opt->check, "-") ? opt->check : "standard input";
}

/* One line for every malformed line of LIST (each is in errors[] too). */
static void report_malformed(const report *r, bool nothing_else)
{
    const char *list = list_name(r->opt);
    if (nothing_else) {
        pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "%s: no properly formatted CRC32C lines found", list);
        return;
    }
    unsigned shown = r->malformed < 3 ? r->malformed : 3;
    char lines[96] = "";
    size_t at = 0;
    for (unsigned i = 0; i < shown; i++) {
        const char *sep = i == 0 ? "" : i + 1 < shown || r->malformed > shown ? ", " : " and ";
        at += (size_t)snprintf(lines + at, sizeof lines - at, "%s%ld", sep, r->malformed_lines[i]);
    }
    if (r->malformed > shown)
        snprintf(lines + at, sizeof lines - at, " and %u more", r->malformed - shown);
    pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "%s: %u line%s improperly formatted (line%s %s)", list, r->malformed,
            r->malformed == 1 ? " is" : "s are", r->malformed == 1 ? "" : "s", lines);
}

int pk_crc32c_check_list(const pk_crc32c_options *opt)
{
    bool is_stdin = !strcmp(opt->check, "-");
    FILE *list = is_stdin ? stdin : fopen(opt->check, "re");
    if (!list)
        return pk_fail(PK_EXIT_USAGE, PK_CRC32C_CMD, "%s: %s", opt->check, strerror(errno));
    report r;
    int status = report_begin(&r, opt);
    if (status != PK_EXIT_OK) {
        if (!is_stdin)
            fclose(list);
        return status;
    }
    char *line = NULL;
    size_t cap = 0;
    long number = 0;
    int read_error = 0;
    ssize_t length;
    while ((length = getline(&line, &cap, list)) != -1) {
        number++;
        if (strspn(line, "\r\n") == (size_t)length)
            continue; /* blank lines are not entries */
        uint32_t expected, crc;
        uint64_t bytes;
        char *name;
        if (!parse_line(line, (size_t)length, &expected, &name)) {
            if (r.malformed < 3)
                r.malformed_lines[r.malformed] = number;
            r.malformed++;
            record_error(&r, opt->check, number, 0, "improperly formatted CRC32C line");
        } else if (!crc_file(name, &crc, &bytes)) {
            r.unreadable++;
            report_error(&r, name, number, strerror(errno));
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
        report_error(&r, opt->check, 0, strerror(read_error));
        if (r.malformed)
            report_malformed(&r, false);
    } else if (r.ok + r.failed + r.unreadable == 0) {
        if (r.malformed == 0)
            r.malformed++; /* an empty list is a malformed one */
        record_error(&r, opt->check, 0, 0, "no properly formatted CRC32C lines found");
        report_malformed(&r, true);
    } else if (r.malformed) {
        report_malformed(&r, false);
    }
    status = report_end(&r);
    if (status != PK_EXIT_OK)
        return status;
    if (r.failed)
        fprintf(stderr, "portkit-target " PK_CRC32C_CMD ": %s: %u of %u computed checksum%s did not match\n",
                list_name(opt), r.failed, r.ok + r.failed, r.ok + r.failed == 1 ? "" : "s");
    if (r.unreadable || r.malformed)
        return PK_EXIT_USAGE;
    return r.failed ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}
