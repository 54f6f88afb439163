/* The tracefs side of rt against a directory laid out like tracefs (plain
 * files): the timerlat run (settings written, the documented trace lines
 * read into per-CPU IRQ and thread histograms, settings put back), the
 * reasons it cannot run, --trace-events (enabled, then restored event by
 * event), and --break's marker, tracing_on and saved trace. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pk_test.h"
#include "rt_break.h"
#include "rt_sysfs.h"
#include "rt_timerlat.h"
#include "rt_trace_events.h"

static char root[64];

static void put(const char *file, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, file);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

static void dir(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    mkdir(path, 0755);
}

/* The file's text (trimmed) equals want. */
static bool holds(const char *file, const char *want)
{
    char path[512], text[4096];
    snprintf(path, sizeof path, "%s/%s", root, file);
    if (!rt_read_text(path, text, sizeof text)) {
        fprintf(stderr, "cannot read %s\n", path);
        return false;
    }
    if (strcmp(text, want))
        fprintf(stderr, "%s holds '%s', not '%s'\n", file, text, want);
    return !strcmp(text, want);
}

static const char trace_text[] =
    "# tracer: timerlat\n"
    "#\n"
    "#         TASK-PID      CPU# ||||   TIMESTAMP    ID            CONTEXT                LATENCY\n"
    "          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       932 ns\n"
    "           <...>-867     [000] ....    54.029339: #1     context thread timer_latency     11700 ns\n"
    "          <idle>-0       [001] dNh1    54.029346: #1     context    irq timer_latency      2833 ns\n"
    "           <...>-868     [001] ....    54.029353: #1     context thread timer_latency      9820 ns\n"
    "CPU:1 [LOST 1234 EVENTS]\n"
    "          <idle>-0       [000] d.h1    54.030328: #2     context    irq timer_latency       769 ns\n"
    "           <...>-867     [000] ....    54.030330: #2     context thread timer_latency      3070 ns\n"
    "             cc1-87882   [001] dNLh1..   54.030340: irq_noise: local_timer:236 start 54.030339 duration 7597 ns\n"
    "          <idle>-0       [001] d.h1    54.030344: #2     context    irq timer_latency       935 ns\n"
    "           <...>-868     [001] ....    54.030347: #2     context thread timer_latency      4351 ns\n"
    "          <idle>-0       [002] d.h1    54.030350: #2     context    irq timer_latency       100 ns\n"
    "           <...>-868     [001] ....    54.030360: #3     context thread timer_la"; /* cut mid-line */

static void lay_out(void)
{
    put("available_tracers", "timerlat osnoise function nop\n");
    put("current_tracer", "nop\n");
    put("tracing_on", "1\n");
    dir("osnoise");
    put("osnoise/timerlat_period_us", "1000\n");
    put("osnoise/cpus", "0-3\n");
    put("trace_pipe", trace_text);
    put("trace", "# tracer: nop\n   <...>-1 [000] .... 1.000000: tracing_mark_write: hello\n");
    put("trace_marker", "");
    dir("events");
    dir("events/sched");
    put("events/sched/enable", "0\n");
    dir("events/irq");
    put("events/irq/enable", "X\n");
    dir("events/irq/irq_handler_entry");
    put("events/irq/irq_handler_entry/enable", "0\n");
    dir("events/irq/softirq_entry");
    put("events/irq/softirq_entry/enable", "1\n");
    dir("events/ftrace"); /* already on: left alone */
    put("events/ftrace/enable", "1\n");
}

static int ticks;

/* While timerlat runs, tracefs holds its settings. */
static void during(void *ctx, const rt_timerlat *r, uint64_t elapsed_ns)
{
    (void)ctx;
    (void)r;
    (void)elapsed_ns;
    if (ticks++ == 0)
        CHECK(holds("current_tracer", "timerlat") && holds("osnoise/timerlat_period_us", "500") &&
              holds("osnoise/cpus", "0-1") && holds("tracing_on", "1"));
}

static void test_timerlat(const rt_tracefs *t)
{
    const int cpus[] = {0, 1};
    rt_timerlat_plan plan = {cpus, 2, 500, 250000000ull, 1000, 100, 1};
    static const volatile sig_atomic_t no_signal = 0;
    rt_timerlat r;
    put("tracing_on", "0\n");
    CHECK(rt_timerlat_run(&r, t, &plan, &no_signal, during, NULL));
    CHECK(r.available && r.ran && !r.interrupted && r.duration_s >= 0.25 && ticks > 0);
    CHECK(r.lost_events == 1234 && r.ncpus == 2);
    const rt_timerlat_cpu *c0 = &r.cpus[0], *c1 = &r.cpus[1];
    CHECK(c0->cpu == 0 && c0->irq.n == 2 && c0->irq.min_ns == 769 && c0->irq.max_ns == 932);
    CHECK(c0->thread.n == 2 && c0->thread.min_ns == 3070 && c0->thread.max_ns == 11700);
    CHECK(c1->cpu == 1 && c1->irq.n == 2 && c1->irq.max_ns == 2833 && c1->thread.n == 2 && c1->thread.max_ns == 9820);
    pk_worst_sample w[10];
    CHECK(pk_hist_worst(&c0->thread, w) == 2 && w[0].cycle == 1 && w[0].time_ns == 11000 && w[1].cycle == 2 &&
          w[1].time_ns == 1002000); /* activation ids; time from the CPU's first line */
    /* Everything as it was. */
    CHECK(holds("current_tracer", "nop") && holds("osnoise/timerlat_period_us", "1000") &&
          holds("osnoise/cpus", "0-3") && holds("tracing_on", "0"));
    rt_timerlat_free(&r);

    /* Interrupted at once: runs no longer, says so, still restores. */
    static const volatile sig_atomic_t signalled = 2;
    CHECK(rt_timerlat_run(&r, t, &plan, &signalled, NULL, NULL) && r.interrupted && r.duration_s < 0.2);
    CHECK(holds("current_tracer", "nop"));
    rt_timerlat_free(&r);
}

static void test_timerlat_missing(rt_tracefs *t)
{
    const int cpus[] = {0};
    rt_timerlat_plan plan = {cpus, 1, 1000, 1000000ull, 1000, 100, -1};
    static const volatile sig_atomic_t no_signal = 0;
    rt_timerlat r;
    put("available_tracers", "blk function nop\n");
    CHECK(!rt_timerlat_run(&r, t, &plan, &no_signal, NULL, NULL) && !r.available && !r.ran);
    CHECK(strstr(r.why, "no timerlat tracer in available_tracers (blk function nop)") != NULL);
    rt_timerlat_free(&r);
    plan.config_set = 0;
    CHECK(!rt_timerlat_run(&r, t, &plan, &no_signal, NULL, NULL));
    CHECK(!strcmp(r.why, "CONFIG_TIMERLAT_TRACER is not set in this kernel (available tracers: blk function nop)"));
    rt_timerlat_free(&r);
    CHECK(holds("current_tracer", "nop"));

    rt_tracefs none = {.path = "", .why = "tracefs is not mounted (test)"};
    CHECK(!rt_timerlat_run(&r, &none, &plan, &no_signal, NULL, NULL) && !strcmp(r.why, "tracefs is not mounted (test)"));
    rt_timerlat_free(&r);
    put("available_tracers", "timerlat osnoise function nop\n");
}

static void test_events(const rt_tracefs *t)
{
    static rt_trace_events e;
    const char *groups[] = {"sched", "irq", "ftrace"};
    CHECK(rt_trace_events_enable(&e, t, groups, 3));
    CHECK(holds("events/sched/enable", "1") && holds("events/irq/enable", "1") && holds("events/ftrace/enable", "1"));
    CHECK(e.nsaved == 2); /* sched as a group, irq's one disabled event */
    rt_trace_events_restore(&e, t);
    CHECK(holds("events/sched/enable", "0") && holds("events/irq/irq_handler_entry/enable", "0") &&
          holds("events/irq/softirq_entry/enable", "1") && holds("events/ftrace/enable", "1"));

    const char *unknown[] = {"sched", "nope"};
    CHECK(!rt_trace_events_enable(&e, t, unknown, 2));
    CHECK(strstr(e.why, "no event group 'nope'") != NULL);
    CHECK(holds("events/sched/enable", "0")); /* undone when a later group failed */
}

static void test_break(const rt_tracefs *t)
{
    rt_break_trace b;
    put("tracing_on", "0\n");
    CHECK(rt_break_trace_prepare(&b, t) && b.ready);
    CHECK(holds("tracing_on", "1"));
    rt_break_trace_hit(&b, 1, 7, 12345);
    CHECK(holds("trace_marker", "portkit: latency 12.345 us on cpu 1 cycle 7"));
    CHECK(holds("tracing_on", "0"));
    char saved[256];
    snprintf(saved, sizeof saved, "%s/saved.trace", root);
    rt_break_trace_save(&b, t, saved);
    CHECK(b.saved && !strcmp(b.file, saved));
    CHECK(holds("saved.trace", "# tracer: nop\n   <...>-1 [000] .... 1.000000: tracing_mark_write: hello"));
    rt_break_trace_restore(&b);
    CHECK(holds("tracing_on", "0") && !b.ready);
    rt_break_trace_restore(&b); /* twice: harmless */

    rt_break_trace_save(&b, t, "/nonexistent/dir/x.trace");
    CHECK(!b.saved && strstr(b.save_why, "cannot create /nonexistent/dir/x.trace") != NULL);

    rt_tracefs none = {.path = "", .why = "tracefs is not mounted (test)"};
    CHECK(!rt_break_trace_prepare(&b, &none) && !strcmp(b.why, "tracefs is not mounted (test)"));
    rt_break_trace_hit(&b, 0, 0, 1); /* not ready: nothing happens */
    rt_break_trace_restore(&b);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/pk-tracefs-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 2;
    }
    lay_out();
    rt_tracefs t = {0};
    snprintf(t.path, sizeof t.path, "%s", root);
    test_timerlat(&t);
    test_timerlat_missing(&t);
    test_events(&t);
    test_break(&t);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return TEST_EXIT();
}
