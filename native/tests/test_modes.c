/* The mode table every command dispatches through (pk_modes.h): which mode
 * a command line picks, how argv reaches it, and the one wording of the
 * errors, generated from the table. */
#include <stdio.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_modes.h"
#include "pk_options.h"
#include "pk_test.h"

static const char *ran;  /* the mode that ran, and what it got */
static int ran_argc;
static const char *ran_argv0;

static int record(int argc, char **argv)
{
    ran_argc = argc;
    ran_argv0 = argv[0];
    ran = argv[0];
    return 7;
}

static void usage(FILE *out)
{
    fputs("usage: test\n", out);
}

static const pk_mode modes[] = {
    {.name = "list", .run = record, .help = "one"},
    {.name = "verify", .run = record, .help = "two"},
    {.name = "bench", .run = record, .help = "three"},
    {.name = "noop", .run = record, .help = "hidden", .unlisted = true},
};
static const pk_modes with_fallback = {"test", "mode", modes, PK_MODE_COUNT(modes), &modes[0], false, usage};
static const pk_modes words_to_fallback = {"test", "mode", modes, PK_MODE_COUNT(modes), &modes[0], true, usage};
static const pk_modes must_name = {"test", "kind", modes, PK_MODE_COUNT(modes), NULL, false, usage};

static const pk_modes *table;

static int run(int argc, char **argv, const char **line)
{
    static pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    ran = NULL;
    int status = pk_modes_run(table, argc, argv);
    *line = pk_test_captured(&err);
    return status;
}

#define ARGS(...) (int)(sizeof((char *[]){"test", __VA_ARGS__}) / sizeof(char *)), (char *[]){"test", __VA_ARGS__, NULL}
#define EXPECT(line, ...) pk_test_expect_usage(run, "test", line, ARGS(__VA_ARGS__))

static void test_picks(void)
{
    const char *line;
    table = &with_fallback;
    CHECK(run(ARGS("verify", "--json"), &line) == 7 && !strcmp(ran, "verify") && ran_argc == 2 && !line[0]);
    CHECK(run(ARGS("--json"), &line) == 7 && !strcmp(ran_argv0, "test") && ran_argc == 2);
    char *alone[] = {"test", NULL};
    CHECK(run(1, alone, &line) == 7 && !strcmp(ran_argv0, "test") && ran_argc == 1);
    CHECK(run(ARGS("noop"), &line) == 7 && !strcmp(ran, "noop"));
    EXPECT("unknown mode 'x': list, verify or bench (try --help)", "x");

    table = &words_to_fallback;
    CHECK(run(ARGS("x"), &line) == 7 && !strcmp(ran_argv0, "test") && ran_argc == 2 && !line[0]);
    CHECK(run(ARGS("bench"), &line) == 7 && !strcmp(ran, "bench"));

    table = &must_name;
    EXPECT("the kind of test comes first: list, verify or bench (try --help)", "--json");
    EXPECT("unknown kind 'x': list, verify or bench (try --help)", "x");
    CHECK(run(1, alone, &line) == PK_EXIT_USAGE && strstr(line, "comes first"));
}

static void test_help_and_lists(void)
{
    static pk_test_capture out;
    table = &must_name;
    ran = NULL;
    pk_test_capture_start(&out, stdout);
    int status = pk_modes_run(table, ARGS("--help"));
    CHECK(status == PK_EXIT_OK && ran == NULL);
    const char *help = pk_test_captured(&out);
    CHECK_TEXT(help, "usage: test\n");

    char names[64];
    CHECK_TEXT(pk_modes_names(&must_name, names, sizeof names), "list, verify or bench");
    static const pk_mode one[] = {{.name = "only", .run = record, .help = "x"}};
    const pk_modes single = {"test", "mode", one, 1, NULL, false, NULL};
    CHECK_TEXT(pk_modes_names(&single, names, sizeof names), "only");
    CHECK(pk_modes_find(&must_name, "bench") == &modes[2] && pk_modes_find(&must_name, "ben") == NULL);

    pk_test_capture_start(&out, stdout);
    pk_modes_usage(stdout, &single, 6);
    const char *lines = pk_test_captured(&out);
    CHECK_TEXT(lines, "  only   x\n");
}

int main(void)
{
    test_picks();
    test_help_and_lists();
    return TEST_EXIT();
}
