/* `portkit-target load` without running a load: its options (each usage
 * error worded once, exit 2), the kinds' defaults, the duty-cycle
 * arithmetic and the /proc/stat busy share (CPU lists: test_cpus.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "load_modes.h"
#include "load_duty.h"
#include "load_sys.h"
#include "pk_cli.h"
#include "pk_options.h"
#include "pk_test.h"

static pk_load_options opt;
static const pk_load_kind *kind;

/* Parses `load ARGS...`; the status, and stderr in *line. */
static int parse(int argc, char **argv, const char **line)
{
    static pk_test_capture err;
    pk_test_capture_start(&err, stderr);
    int status = pk_load_parse(argc, argv, &kind, &opt);
    *line = pk_test_captured(&err);
    return status;
}

#define ARGS(...) (int)(sizeof((char *[]){"load", __VA_ARGS__}) / sizeof(char *)), (char *[]){"load", __VA_ARGS__, NULL}
#define EXPECT(line, ...) pk_test_expect_usage(parse, "load", line, ARGS(__VA_ARGS__))

static bool parses(int argc, char **argv)
{
    const char *got;
    int status = parse(argc, argv, &got);
    if (status != PK_CONTINUE || got[0])
        fprintf(stderr, "  unexpected: status %d, %s", status, got);
    return status == PK_CONTINUE && !got[0];
}

static void test_usage_errors(void)
{
    const char *got;
    char *none[] = {"load", NULL};
    CHECK(parse(1, none, &got) == PK_EXIT_USAGE);
    CHECK(strstr(got, "the kind of load comes first") != NULL);
    EXPECT("the kind of load comes first: cpu, spawn, io, net, mem, msg or cmd (try --help)", "--duration", "1");
    EXPECT("unknown kind 'disk': cpu, spawn, io, net, mem, msg or cmd (try --help)", "disk");
    EXPECT("unknown option '--bogus' (try --help)", "cpu", "--bogus");
    EXPECT("option '--duty' needs a value (try --help)", "cpu", "--duty");
    EXPECT("option '--json' takes no value (try --help)", "cpu", "--json=yes");
    EXPECT("unexpected argument 'extra' (try --help)", "cpu", "extra");
    EXPECT("--duty '0': expected a whole number from 1 to 100", "cpu", "--duty", "0");
    EXPECT("--duty '101': expected a whole number from 1 to 100", "cpu", "--duty", "101");
    EXPECT("--period '0': expected a whole number from 1 to 1000", "cpu", "--period", "0");
    EXPECT("--workers '0': expected a whole number from 1 to 256", "spawn", "--workers", "0");
    EXPECT("--duration '0': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1d", "cpu", "--duration",
           "0");
    EXPECT("--duration '1x': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1d", "cpu", "--duration",
           "1x");
    EXPECT("--duration 'nan': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1d", "mem", "--duration",
           "nan");
    EXPECT("--duration '2d': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1d", "mem", "--duration",
           "2d");
    EXPECT("--grace '-1': expected seconds such as 10, 0.5, 2m or 1h, 0 or more and at most 1m", "cmd", "--cmd", "true",
           "--grace", "-1");
    EXPECT("--cpus '1-0': expected CPU numbers and ranges such as 0-1,3", "cpu", "--cpus", "1-0");
    EXPECT("--duty is not an option of load io (try --help)", "io", "--duty", "50");
    EXPECT("--cmd is not an option of load cpu (try --help)", "cpu", "--cmd", "true");
    EXPECT("--pipe is not an option of load net (try --help)", "net", "--pipe");
    EXPECT("load cmd needs --cmd 'COMMAND' (try --help)", "cmd");
    EXPECT("--proto 'sctp': expected udp or tcp", "net", "--proto", "sctp");
    EXPECT("--size 65508: at most 65507 bytes over udp", "net", "--size", "65508");
    EXPECT("--program 'ls': expected true or self", "spawn", "--program", "ls");
    EXPECT("--workers 129: net runs at most 128 pairs of threads", "net", "--workers", "129");
    EXPECT("--groups 64 x --pairs 64: more than 256 threads", "msg", "--groups", "64", "--pairs", "64");
    EXPECT("--path '/no/such/dir': No such file or directory", "io", "--path", "/no/such/dir");
    EXPECT("noop takes no options", "noop", "--json");
}

static void test_defaults(void)
{
    size_t cpus = pk_allowed_cpu_count();
    CHECK(parses(ARGS("cpu")));
    CHECK(kind && !strcmp(kind->name, "cpu"));
    CHECK(opt.duration_s == 10.0 && !opt.json);
    CHECK(opt.workers == cpus && opt.duty_percent == 100 && opt.period_ms == 10 && opt.cpu_count == 0);

    CHECK(parses(ARGS("cpu", "--duty", "80", "--duration", "1.5", "--json", "--cpus", "0")));
    CHECK(opt.duty_percent == 80 && opt.duration_s == 1.5 && opt.json);
    CHECK(opt.cpu_count == 1 && opt.cpus[0] == 0 && opt.workers == 1); /* one per CPU listed */

    CHECK(parses(ARGS("net", "--proto", "tcp", "--size", "65508")));
    CHECK(opt.workers == 1 && opt.size == 65508 && !strcmp(opt.proto, "tcp"));
    CHECK(parses(ARGS("net")));
    CHECK(opt.size == 64 && !strcmp(opt.proto, "udp"));

    CHECK(parses(ARGS("msg", "--pipe")));
    CHECK(opt.groups == 2 && opt.pairs == 4 && opt.size == 100 && opt.pipe);
    CHECK(parses(ARGS("mem", "--size", "8", "--workers", "2")));
    CHECK(opt.size == 8 && opt.workers == 2);
    CHECK(parses(ARGS("io", "--dir", "/tmp", "--path", "/")));
    CHECK(opt.size == 64 && opt.workers == cpus && !strcmp(opt.path, "/"));
    CHECK(parses(ARGS("cmd", "--cmd", "sleep 1")));
    CHECK(opt.grace_s == 2.0 && !strcmp(opt.cmd, "sleep 1"));
    CHECK(parses(ARGS("spawn", "--program", "self")));
    CHECK(!strcmp(opt.program, "self") && opt.workers == cpus);

    CHECK(parses(ARGS("noop")));
    CHECK(kind == NULL);

    /* The same option twice: the last one counts, as in getopt tools. */
    CHECK(parses(ARGS("cpu", "--duty", "20", "--duty", "30")));
    CHECK(opt.duty_percent == 30);
}

static void test_duty(void)
{
    const uint64_t ms = 1000000;
    CHECK(pk_duty_busy_ns(10 * ms, 80) == 8 * ms);
    CHECK(pk_duty_busy_ns(10 * ms, 100) == 10 * ms);
    CHECK(pk_duty_busy_ns(1 * ms, 1) == 10000);
    CHECK(pk_duty_busy_ns(1000 * ms, 99) == 990 * ms);

    CHECK(pk_duty_phase_ns(10 * ms, 0, 4) == 0);
    CHECK(pk_duty_phase_ns(10 * ms, 1, 4) == 2500000);
    CHECK(pk_duty_phase_ns(10 * ms, 5, 4) == 2500000);
    CHECK(pk_duty_phase_ns(10 * ms, 0, 0) == 0);

    /* The next period start; a worker late by more than a period skips
     * the missed ones instead of running them back to back. */
    CHECK(pk_duty_next_start(1000, 100, 500) == 1000);
    CHECK(pk_duty_next_start(1000, 100, 1000) == 1100);
    CHECK(pk_duty_next_start(1000, 100, 1099) == 1100);
    CHECK(pk_duty_next_start(1000, 100, 1100) == 1200);
    CHECK(pk_duty_next_start(1000, 100, 1350) == 1400);
    CHECK(pk_duty_next_start(1000, 0, 1350) == 1350);
}

static void test_busy_share(void)
{
    CHECK(pk_busy_percent((pk_cpu_jiffies){100, 1000}, (pk_cpu_jiffies){600, 2000}) == 50.0);
    CHECK(isnan(pk_busy_percent((pk_cpu_jiffies){100, 1000}, (pk_cpu_jiffies){100, 1000})));
    pk_proc_stat s;
    pk_proc_stat_read(&s);
    CHECK(s.ok && s.count >= 1 && s.all.total >= s.all.busy);
    pk_proc_stat_free(&s);
    CHECK(pk_allowed_cpu_count() >= 1);
    CHECK(pk_count_descriptors() >= 3);
}

int main(void)
{
    test_usage_errors();
    test_defaults();
    test_duty();
    test_busy_share();
    return TEST_EXIT();
}
