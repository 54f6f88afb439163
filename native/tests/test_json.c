/* The JSON writer must produce exactly the expected bytes: nesting, commas,
 * escapes of hostile strings, non-finite numbers; and it must fail, never
 * write invalid JSON, where nesting goes past PK_JSON_MAX_DEPTH. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_json.h"
#include "pk_test.h"

static char *render(void (*build)(pk_json *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pk_json j;
    pk_json_init(&j, f);
    build(&j);
    fclose(f);
    return buf;
}

static void nested(pk_json *j)
{
    pk_json_begin_object(j);
    pk_json_kv_int(j, "a", -1);
    pk_json_key(j, "b");
    pk_json_begin_array(j);
    pk_json_uint(j, 18446744073709551615u);
    pk_json_begin_object(j);
    pk_json_end_object(j);
    pk_json_begin_array(j);
    pk_json_end_array(j);
    pk_json_null(j);
    pk_json_end_array(j);
    pk_json_kv_bool(j, "c", true);
    pk_json_kv_hex(j, "d", 0xffffffffffull);
    pk_json_end_object(j);
}

static void escapes(pk_json *j)
{
    pk_json_begin_array(j);
    pk_json_string(j, "q\"b\\n\n\t\x01\xff");
    pk_json_string(j, NULL);
    pk_json_double(j, NAN);
    pk_json_double(j, INFINITY);
    pk_json_double(j, 0.5);
    pk_json_double(j, 32.34715);
    pk_json_double(j, 0.30000000000000004); /* needs all 17 digits */
    pk_json_end_array(j);
}

/* The shorthands for values that may not exist, and arrays of numbers. */
static void optional(pk_json *j)
{
    const uint64_t values[] = {0, 7, 18446744073709551615u};
    pk_json_begin_object(j);
    pk_json_kv_int_or_null(j, "a", true, -5);
    pk_json_kv_int_or_null(j, "b", false, -5);
    pk_json_kv_uint_or_null(j, "c", true, 0);
    pk_json_kv_uint_or_null(j, "d", false, 9);
    pk_json_kv_double_or_null(j, "e", true, 1.5);
    pk_json_kv_double_or_null(j, "f", false, 1.5);
    pk_json_kv_uint_array(j, "g", values, 3);
    pk_json_kv_uint_array(j, "h", values, 0);
    pk_json_end_object(j);
}

static void document(pk_json *j)
{
    pk_json_begin_document(j, "portkit.test/1");
    pk_json_kv_string(j, "x", "y");
    pk_json_end_document(j);
}

/* `levels` objects inside each other, each under key "a", the innermost
 * holding "x": 1. Returns what pk_json_error said (NULL: none). */
static const char *nest(pk_json *j, int levels)
{
    for (int i = 0; i < levels; i++) {
        if (i > 0)
            pk_json_key(j, "a");
        pk_json_begin_object(j);
    }
    pk_json_kv_int(j, "x", 1);
    for (int i = 0; i < levels; i++)
        pk_json_end_object(j);
    return pk_json_error(j);
}

/* The text nest() must write for `levels` levels. */
static char *nested_text(int levels)
{
    char *text = malloc((size_t)levels * 6 + 16), *p = text;
    for (int i = 0; i < levels; i++)
        p += sprintf(p, i ? "\"a\":{" : "{");
    p += sprintf(p, "\"x\":1");
    for (int i = 0; i < levels; i++)
        *p++ = '}';
    *p = '\0';
    return text;
}

static void test_depth_limit(void)
{
    char *buf = NULL, *want;
    size_t len = 0;
    pk_json j;

    /* PK_JSON_MAX_DEPTH levels: complete and valid. */
    FILE *f = open_memstream(&buf, &len);
    pk_json_init(&j, f);
    CHECK(nest(&j, PK_JSON_MAX_DEPTH) == NULL);
    fclose(f);
    want = nested_text(PK_JSON_MAX_DEPTH);
    CHECK(!strcmp(buf, want));
    free(want);
    free(buf);

    /* One more: the writer fails and writes nothing past the 32nd level. */
    f = open_memstream(&buf, &len);
    pk_json_init(&j, f);
    const char *error = nest(&j, PK_JSON_MAX_DEPTH + 1);
    fclose(f);
    CHECK(error && !strcmp(error, "nesting deeper than 32 levels"));
    want = nested_text(PK_JSON_MAX_DEPTH);
    strcpy(strstr(want, "\"x\":1"), "\"a\":"); /* the last key, then nothing */
    CHECK(!strcmp(buf, want));
    free(want);
    free(buf);

    /* Closing what was never opened fails too. */
    f = open_memstream(&buf, &len);
    pk_json_init(&j, f);
    pk_json_begin_array(&j);
    pk_json_end_array(&j);
    pk_json_end_array(&j);
    pk_json_int(&j, 1);
    fclose(f);
    CHECK(pk_json_error(&j) != NULL);
    CHECK(!strcmp(buf, "[]"));
    free(buf);
}

/* A command's document that nests too deep is an error line and exit 3,
 * never a success with broken JSON. */
static void test_document_too_deep(void)
{
    char *buf = NULL;
    size_t len = 0;
    pk_json j;
    FILE *f = open_memstream(&buf, &len);
    pk_json_init(&j, f);
    pk_json_begin_document(&j, "portkit.test/1");
    pk_json_key(&j, "deep");
    nest(&j, PK_JSON_MAX_DEPTH); /* one more than fits below the top level */
    pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    int status = pk_json_end_command(&j, "test");
    const char *line = pk_test_captured(&err);
    fclose(f);
    CHECK(status == PK_EXIT_ENV);
    CHECK(!strcmp(line, "portkit-target test: cannot write the JSON document: nesting deeper than 32 levels\n"));
    CHECK(strchr(buf, '\n') == NULL); /* no closing newline: the document is visibly cut */
    free(buf);

    f = open_memstream(&buf, &len);
    pk_json_init(&j, f);
    pk_json_begin_document(&j, "portkit.test/1");
    pk_json_key(&j, "deep");
    nest(&j, PK_JSON_MAX_DEPTH - 1);
    CHECK(pk_json_end_command(&j, "test") == PK_EXIT_OK);
    fclose(f);
    CHECK(len > 0 && buf[len - 1] == '\n');
    free(buf);
}

int main(void)
{
    test_depth_limit();
    test_document_too_deep();

    char *s = render(nested);
    CHECK(!strcmp(s, "{\"a\":-1,\"b\":[18446744073709551615,{},[],null],\"c\":true,\"d\":\"0xffffffffff\"}"));
    free(s);

    s = render(escapes);
    CHECK(!strcmp(s, "[\"q\\\"b\\\\n\\n\\t\\u0001\\u00ff\",null,null,null,0.5,32.34715,0.30000000000000004]"));
    free(s);

    s = render(optional);
    CHECK(!strcmp(s, "{\"a\":-5,\"b\":null,\"c\":0,\"d\":null,\"e\":1.5,\"f\":null,"
                     "\"g\":[0,7,18446744073709551615],\"h\":[]}"));
    free(s);

    s = render(document);
    CHECK(!strncmp(s, "{\"schema\":\"portkit.test/1\",\"agent\":{\"version\":\"", 47));
    CHECK(strstr(s, "\"data_model\":\"") != NULL);
    CHECK(!strcmp(s + strlen(s) - 12, "\"x\":\"y\"}\n") || strstr(s, ",\"x\":\"y\"}\n") != NULL);
    free(s);
    return TEST_EXIT();
}
