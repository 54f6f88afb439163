/* Streaming JSON writer: the one way the agent emits machine output.
 *
 * Values are written as they are produced, so a long run killed half-way still
 * leaves every finished line on disk. Commas and nesting are tracked here so
 * callers never assemble JSON by hand. */
#ifndef PK_JSON_H
#define PK_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PK_JSON_MAX_DEPTH 32

typedef struct pk_json {
    FILE *out;
    int depth;
    bool has_items[PK_JSON_MAX_DEPTH]; /* whether a comma is due at each level */
    bool after_key;                    /* a key was written, its value is next */
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

/* Opens the top-level object with "schema" and the "agent" block that every
 * document carries (version, architecture, data model). */
void pk_json_begin_document(pk_json *j, const char *schema);
/* Closes the top-level object, writes a newline and flushes. */
void pk_json_end_document(pk_json *j);

#endif
