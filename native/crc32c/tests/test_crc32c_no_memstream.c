/* crc32c --json holds errors[] in a memory stream until the end of the
 * document. Without memory for it the command must say so and exit 3, never
 * print a document whose errors[] is silently empty. This test's own
 * open_memstream replaces libc's when it is linked (the agent's code is
 * unchanged): it fails outright, or hands out a stream whose writes fail. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_test.h"

static enum { NO_STREAM, STREAM_FILLS_UP } fault;

FILE *open_memstream(char **ptr, size_t *sizeloc)
{
    *ptr = NULL;
    *sizeloc = 0;
    if (fault == STREAM_FILLS_UP)
        return fopen("/dev/full", "w"); /* every write fails, as when realloc does */
    errno = ENOMEM;
    return NULL;
}

#define MISSING "/nonexistent/portkit-test-file"
#define NO_BUFFER "portkit-target crc32c: cannot hold the errors[] of the JSON document: Cannot allocate memory\n"

/* Runs `portkit-target crc32c ARGS`; its exit code, stdout and stderr. */
static int run(char **argv, int argc, pk_test_capture *out, pk_test_capture *err)
{
    pk_test_capture_start(out, stdout);
    pk_test_capture_start(err, stderr);
    int status = pk_cmd_crc32c(argc, argv);
    pk_test_captured(err);
    pk_test_captured(out);
    return status;
}

static void test_no_stream(void)
{
    static pk_test_capture out, err;
    fault = NO_STREAM;
    char *sums[] = {"crc32c", "--json", MISSING, NULL};
    CHECK(run(sums, 3, &out, &err) == PK_EXIT_ENV);
    CHECK(!strcmp(err.text, NO_BUFFER));
    CHECK(out.text[0] == '\0');

    char *check[] = {"crc32c", "--json", "--check", MISSING, NULL};
    CHECK(run(check, 4, &out, &err) == PK_EXIT_USAGE); /* the list itself cannot be read */
    char list[] = "/tmp/portkit-test-list-XXXXXX";
    FILE *f = fdopen(mkstemp(list), "w");
    fprintf(f, "e3069283  " MISSING "\n");
    fclose(f);
    check[3] = list;
    CHECK(run(check, 4, &out, &err) == PK_EXIT_ENV);
    CHECK(!strcmp(err.text, NO_BUFFER));
    CHECK(out.text[0] == '\0');
    remove(list);
}

static void test_stream_fills_up(void)
{
    static pk_test_capture out, err;
    fault = STREAM_FILLS_UP;
    char *sums[] = {"crc32c", "--json", MISSING, NULL};
    CHECK(run(sums, 3, &out, &err) == PK_EXIT_ENV);
    CHECK(!strcmp(err.text, "portkit-target crc32c: " MISSING ": No such file or directory\n" NO_BUFFER));
    /* The document stops before errors[]: no closing newline. */
    CHECK(!strncmp(out.text, "{\"schema\":\"portkit.crc32c/1\"", 28));
    CHECK(strstr(out.text, "\"errors\"") == NULL && strchr(out.text, '\n') == NULL);
}

int main(void)
{
    test_no_stream();
    test_stream_fills_up();
    return TEST_EXIT();
}
