#include "pk_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "pk_arch.h"
#include "pk_cli.h"

#define STRINGIFY(x) #x
#define STRING_OF(x) STRINGIFY(x)

void pk_json_init(pk_json *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->has_items[0] = false;
    j->after_key = false;
    j->error = NULL;
}

/* Writes the separator a new value needs at the current level; false once
 * the writer has failed, and the value is then not written either. */
static bool before_value(pk_json *j)
{
    if (j->error)
        return false;
    if (j->after_key) {
        j->after_key = false;
        return true;
    }
    if (j->has_items[j->depth])
        fputc(',', j->out);
    j->has_items[j->depth] = true;
    return true;
}

static void open_level(pk_json *j, char c)
{
    if (!j->error && j->depth == PK_JSON_MAX_DEPTH)
        j->error = "nesting deeper than " STRING_OF(PK_JSON_MAX_DEPTH) " levels";
    if (!before_value(j))
        return;
    fputc(c, j->out);
    j->depth++;
    j->has_items[j->depth] = false;
}

static void close_level(pk_json *j, char c)
{
    if (!j->error && j->depth == 0)
        j->error = "a container closed that was never opened";
    if (j->error)
        return;
    fputc(c, j->out);
    j->depth--;
}

void pk_json_begin_object(pk_json *j) { open_level(j, '{'); }
void pk_json_end_object(pk_json *j) { close_level(j, '}'); }
void pk_json_begin_array(pk_json *j) { open_level(j, '['); }
void pk_json_end_array(pk_json *j) { close_level(j, ']'); }

static void write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            /* Control bytes and non-ASCII bytes are escaped so that any
             * input, even names from a corrupt image, yields valid JSON. */
            if (*p < 0x20 || *p >= 0x7f)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void pk_json_key(pk_json *j, const char *key)
{
    if (!before_value(j))
        return;
    write_escaped(j->out, key);
    fputc(':', j->out);
    j->after_key = true;
}

void pk_json_string(pk_json *j, const char *s)
{
    if (!s) {
        pk_json_null(j);
        return;
    }
    if (before_value(j))
        write_escaped(j->out, s);
}

void pk_json_int(pk_json *j, int64_t v)
{
    if (before_value(j))
        fprintf(j->out, "%" PRId64, v);
}

void pk_json_uint(pk_json *j, uint64_t v)
{
    if (before_value(j))
        fprintf(j->out, "%" PRIu64, v);
}

void pk_json_double(pk_json *j, double v)
{
    if (!isfinite(v)) {
        pk_json_null(j);
        return;
    }
    /* The shortest of %.15g and %.17g that reads back as the same double:
     * 32.34715 rather than 32.347149999999999, without losing a bit. */
    char buf[32];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    if (before_value(j))
        fputs(buf, j->out);
}

void pk_json_bool(pk_json *j, bool v)
{
    if (before_value(j))
        fputs(v ? "true" : "false", j->out);
}

void pk_json_null(pk_json *j)
{
    if (before_value(j))
        fputs("null", j->out);
}

void pk_json_kv_string(pk_json *j, const char *key, const char *s) { pk_json_key(j, key); pk_json_string(j, s); }
void pk_json_kv_int(pk_json *j, const char *key, int64_t v) { pk_json_key(j, key); pk_json_int(j, v); }
void pk_json_kv_uint(pk_json *j, const char *key, uint64_t v) { pk_json_key(j, key); pk_json_uint(j, v); }
void pk_json_kv_double(pk_json *j, const char *key, double v) { pk_json_key(j, key); pk_json_double(j, v); }
void pk_json_kv_bool(pk_json *j, const char *key, bool v) { pk_json_key(j, key); pk_json_bool(j, v); }

void pk_json_kv_hex(pk_json *j, const char *key, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    pk_json_kv_string(j, key, buf);
}

/* The key, then null when the value does not exist; whether it does. */
static bool key_or_null(pk_json *j, const char *key, bool exists)
{
    pk_json_key(j, key);
    if (!exists)
        pk_json_null(j);
    return exists;
}

void pk_json_kv_int_or_null(pk_json *j, const char *key, bool exists, int64_t v)
{
    if (key_or_null(j, key, exists))
        pk_json_int(j, v);
}

void pk_json_kv_uint_or_null(pk_json *j, const char *key, bool exists, uint64_t v)
{
    if (key_or_null(j, key, exists))
        pk_json_uint(j, v);
}

void pk_json_kv_double_or_null(pk_json *j, const char *key, bool exists, double v)
{
    if (key_or_null(j, key, exists))
        pk_json_double(j, v);
}

void pk_json_kv_uint_array(pk_json *j, const char *key, const uint64_t *v, size_t n)
{
    pk_json_key(j, key);
    pk_json_begin_array(j);
    for (size_t i = 0; i < n; i++)
        pk_json_uint(j, v[i]);
    pk_json_end_array(j);
}

void pk_json_begin_document(pk_json *j, const char *schema)
{
    pk_json_begin_object(j);
    pk_json_kv_string(j, "schema", schema);
    pk_json_key(j, "agent");
    pk_json_begin_object(j);
    pk_json_kv_string(j, "version", PK_VERSION);
    pk_json_kv_string(j, "arch", PK_ARCH);
    pk_json_kv_string(j, "data_model", PK_DATA_MODEL);
    pk_json_end_object(j);
}

bool pk_json_end_document(pk_json *j)
{
    pk_json_end_object(j);
    if (!j->error)
        fputc('\n', j->out);
    fflush(j->out);
    return !j->error;
}

const char *pk_json_error(const pk_json *j)
{
    return j->error;
}

int pk_json_end_command(pk_json *j, const char *cmd)
{
    if (pk_json_end_document(j))
        return PK_EXIT_OK;
    return pk_fail(PK_EXIT_ENV, cmd, "cannot write the JSON document: %s", j->error);
}
