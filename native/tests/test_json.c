/* The JSON writer must produce exactly the expected bytes: nesting, commas,
 * escapes of hostile strings, non-finite numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void document(pk_json *j)
{
    pk_json_begin_document(j, "portkit.test/1");
    pk_json_kv_string(j, "x", "y");
    pk_json_end_document(j);
}

int main(void)
{
    char *s = render(nested);
    CHECK(!strcmp(s, "{\"a\":-1,\"b\":[18446744073709551615,{},[],null],\"c\":true,\"d\":\"0xffffffffff\"}"));
    free(s);

    s = render(escapes);
    CHECK(!strcmp(s, "[\"q\\\"b\\\\n\\n\\t\\u0001\\u00ff\",null,null,null,0.5,32.34715,0.30000000000000004]"));
    free(s);

    s = render(document);
    CHECK(!strncmp(s, "{\"schema\":\"portkit.test/1\",\"agent\":{\"version\":\"", 47));
    CHECK(strstr(s, "\"data_model\":\"") != NULL);
    CHECK(!strcmp(s + strlen(s) - 12, "\"x\":\"y\"}\n") || strstr(s, ",\"x\":\"y\"}\n") != NULL);
    free(s);
    return TEST_EXIT();
}
