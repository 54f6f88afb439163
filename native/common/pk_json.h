/* Streaming JSON writer: the one way the agent emits machine output.
 *
 * Values are written as they are produced, so a long run killed half-way still
 * leaves every finished line on disk. Commas and nesting are tracked here so
 * callers never assemble JSON by hand. */
#ifndef PK_JSON_H
#define PK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Objects and arrays nest at most this deep; one more fails the writer. */
#define PK_JSON_MAX_DEPTH 32

typedef struct pk_json {
    FILE *out;
    int depth;                             /* containers open */
    bool has_items[PK_JSON_MAX_DEPTH + 1]; /* whether a comma is due at each depth */
    bool after_key;                        /* a key was written, its value is next */
    const char *error; /* why the writer failed, NULL while it has not; once
                          set, nothing more is written */
} pk_json;

void pk_json_init(pk_json *j, FILE *out);

void pk_json_begin_object(pk_json *j);
void pk_json_end_object(pk_json *j);
void pk_json_begin_array(pk_json *j);
void pk_json_end_array(pk_json *j);

void pk_json_key(pk_json *j, const char *key);
void pk_json_string(pk_json *j, const char *s); /* NULL writes null */
void pk_json_int(pk_json *j, int64_t v);
void pk_json_uint(pk_json *j, uint64_t v);
void pk_json_double(pk_json *j, double v); /* NaN and infinities write null */
void pk_json_bool(pk_json *j, bool v);
void pk_json_null(pk_json *j);

/* key + value shorthands */
void pk_json_kv_string(pk_json *j, const char *key, const char *s);
void pk_json_kv_int(pk_json *j, const char *key, int64_t v);
void pk_json_kv_uint(pk_json *j, const char *key, uint64_t v);
void pk_json_kv_double(pk_json *j, const char *key, double v);
void pk_json_kv_bool(pk_json *j, const char *key, bool v);
/* Hex string "0x..." for addresses and register values (JSON numbers lose
 * precision above 2^53 in most readers). */
void pk_json_kv_hex(pk_json *j, const char *key, uint64_t v);
/* The value, or null when it does not exist (never 0 for "not measured"). */
void pk_json_kv_int_or_null(pk_json *j, const char *key, bool exists, int64_t v);
void pk_json_kv_uint_or_null(pk_json *j, const char *key, bool exists, uint64_t v);
void pk_json_kv_double_or_null(pk_json *j, const char *key, bool exists, double v);
/* An array of unsigned numbers. */
void pk_json_kv_uint_array(pk_json *j, const char *key, const uint64_t *v, size_t n);

/* Opens the top-level object with "schema" and the "agent" block that every
 * document carries (version, architecture, data model). */
void pk_json_begin_document(pk_json *j, const char *schema);
/* Closes the top-level object, writes a newline and flushes. False when the
 * writer failed on the way (pk_json_error says why): the output stops where
 * it failed and is not a valid document. */
bool pk_json_end_document(pk_json *j);

/* What made the writer fail, e.g. "nesting deeper than 32 levels"; NULL
 * while it has not. */
const char *pk_json_error(const pk_json *j);

/* pk_json_end_document for a command's document on stdout: PK_EXIT_OK, or
 * PK_EXIT_ENV after "portkit-target CMD: cannot write the JSON document:
 * <why>" on stderr, so that an incomplete document never passes as success. */
int pk_json_end_command(pk_json *j, const char *cmd);

#endif
