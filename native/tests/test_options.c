/* The usage errors every command shares (pk_options.h): each getopt_long
 * failure gets its one line, naming the option as it was written. */
#include <stdio.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_options.h"
#include "pk_test.h"

static const struct option longopts[] = {
    {"json", no_argument, NULL, 'j'},
    {"calls", required_argument, NULL, 'n'},
    {"check", required_argument, NULL, 'c'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Parses argv as a command would; the exit code, and the line in *line. */
static int parse(int argc, char **argv, const char **line)
{
    static pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    pk_options_start();
    int c, status = PK_CONTINUE;
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":hc:", longopts, NULL)) != -1)
        if (c == '?' || c == ':')
            status = pk_option_error("test", c, argv, longopts);
    if (status == PK_CONTINUE)
        status = pk_no_operands("test", argc, argv);
    *line = pk_test_captured(&err);
    return status;
}


#define EXPECT(line, ...)                                                  \
    do {                                                                   \
        char *args[] = {"test", __VA_ARGS__, NULL};                        \
        pk_test_expect_usage(parse, "test", line, (int)(sizeof args / sizeof args[0]) - 1, args); \
    } while (0)

static void test_option_errors(void)
{
    EXPECT("unknown option '--bogus' (try --help)", "--bogus");
    EXPECT("unknown option '--bogus=1' (try --help)", "--bogus=1");
    EXPECT("unknown option '-x' (try --help)", "-x");
    /* Inside a group, after a long option with the same value: still -j. */
    EXPECT("unknown option '-j' (try --help)", "--json", "-jx");
    EXPECT("unknown option '-n' (try --help)", "--calls=5", "-nj");
    EXPECT("option '--calls' needs a value (try --help)", "--calls");
    EXPECT("option '--cal' needs a value (try --help)", "--json", "--cal");
    EXPECT("option '--check' needs a value (try --help)", "--check");
    EXPECT("option '-c' needs a value (try --help)", "-c");
    EXPECT("option '--json' takes no value (try --help)", "--json=1");
    EXPECT("option '--help' takes no value (try --help)", "--help=yes");
    EXPECT("unexpected argument 'extra' (try --help)", "--json", "extra");
    EXPECT("unexpected argument 'extra' (try --help)", "extra", "--calls", "3");
    /* A value the user typed never splits the one line nor reaches the
     * terminal as an escape sequence. */
    EXPECT("unexpected argument 'a\\nb' (try --help)", "a\nb");
    EXPECT("unknown option '--x\\x1b[31m\\r\\t\\x7f' (try --help)", "--x\x1b[31m\r\t\x7f");
    EXPECT("unexpected argument 'caf\xc3\xa9' (try --help)", "caf\xc3\xa9");
}

static void test_good_options_go_on(void)
{
    char *argv[] = {"test", "--json", "--calls", "3", "-c", "list", "--check=x", NULL};
    const char *got;
    CHECK(parse(7, argv, &got) == PK_CONTINUE);
    CHECK(got[0] == '\0');
}

static void test_whole_number(void)
{
    uint64_t v = 0;
    pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    int ok = pk_whole_number_option("test", "--calls", "7", 1, 10, &v);
    int low = pk_whole_number_option("test", "--calls", "0", 1, 10, &v);
    const char *got = pk_test_captured(&err);
    CHECK(ok == PK_CONTINUE);
    CHECK(low == PK_EXIT_USAGE);
    CHECK(v == 7);
    CHECK(!strcmp(got, "portkit-target test: --calls '0': expected a whole number from 1 to 10\n"));
    pk_test_capture_start(&err, stderr);
    CHECK(pk_whole_number_option("test", "--calls", "1e3", 1, 10, &v) == PK_EXIT_USAGE);
    CHECK(pk_whole_number_option("test", "--calls", "", 1, 10, &v) == PK_EXIT_USAGE);
    got = pk_test_captured(&err);
    CHECK(!strcmp(got, "portkit-target test: --calls '1e3': expected a whole number from 1 to 10\n"
                       "portkit-target test: --calls '': expected a whole number from 1 to 10\n"));
}

/* The one seconds parser of load --duration/--grace, rt --duration and
 * crc32c --seconds. */
static void test_seconds(void)
{
    static const struct {
        const char *text;
        double seconds;
    } good[] = {
        {"10", 10},   {"0.5", 0.5}, {".5", 0.5},  {"2m", 120},      {"1h", 3600},
        {"7d", 604800}, {"3s", 3},  {"0", 0},     {"1e-05", 1e-05}, {"0.01", 0.01},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        CHECK(pk_parse_seconds(good[i].text, &v) && v == good[i].seconds);
    }
    static const char *const bad[] = {"", "-1", "+1", " 1", "1 ", "1x", "1ms", "2mm", "0x10", "inf",
                                      "nan", "1e999", ".", "m", "1.5.5", "1e"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = -1;
        bool parsed = pk_parse_seconds(bad[i], &v);
        CHECK(!parsed);
        if (parsed)
            fprintf(stderr, "  parsed: '%s'\n", bad[i]);
    }

    double v = 0;
    pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    int ok = pk_seconds_option("test", "--duration", "1.5m", false, 86400, &v);
    int zero = pk_seconds_option("test", "--duration", "0", false, 86400, &v);
    int grace = pk_seconds_option("test", "--grace", "0", true, 60, &v);
    int high = pk_seconds_option("test", "--grace", "61", true, 60, &v);
    int odd_max = pk_seconds_option("test", "--seconds", "91", false, 90, &v);
    const char *got = pk_test_captured(&err);
    CHECK(ok == PK_CONTINUE && zero == PK_EXIT_USAGE && grace == PK_CONTINUE && high == PK_EXIT_USAGE);
    CHECK(odd_max == PK_EXIT_USAGE && v == 0);
    CHECK_TEXT(got, "portkit-target test: --duration '0': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at "
                    "most 1d\n"
                    "portkit-target test: --grace '61': expected seconds such as 10, 0.5, 2m or 1h, 0 or more and at "
                    "most 1m\n"
                    "portkit-target test: --seconds '91': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at "
                    "most 90\n");
}

int main(void)
{
    test_option_errors();
    test_good_options_go_on();
    test_whole_number();
    test_seconds();
    return TEST_EXIT();
}
