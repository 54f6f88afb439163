/* rt_timerlat_parse_line on the trace text of
 * Documentation/trace/timerlat-tracer.rst (its examples, as the kernel
 * prints them with "#%-5u context %6s timer_latency %9llu ns"), and on the
 * lines around them that are not samples. */
#include <string.h>

#include "pk_test.h"
#include "rt_timerlat_parse.h"

static bool parse(const char *line, rt_timerlat_sample *s)
{
    return rt_timerlat_parse_line(line, strlen(line), s);
}

typedef struct sample_case {
    const char *line;
    int cpu;
    rt_timerlat_context context;
    uint64_t activation, latency_ns, timestamp_ns;
} sample_case;

static const sample_case samples[] = {
    /* The documentation's first example (cat trace). */
    {"          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       932 ns", 0,
     RT_TIMERLAT_IRQ, 1, 932, 54029328000ull},
    {"           <...>-867     [000] ....    54.029339: #1     context thread timer_latency     11700 ns", 0,
     RT_TIMERLAT_THREAD, 1, 11700, 54029339000ull},
    {"          <idle>-0       [001] dNh1    54.029346: #1     context    irq timer_latency      2833 ns", 1,
     RT_TIMERLAT_IRQ, 1, 2833, 54029346000ull},
    {"           <...>-868     [001] ....    54.029353: #1     context thread timer_latency      9820 ns\n", 1,
     RT_TIMERLAT_THREAD, 1, 9820, 54029353000ull},
    {"          <idle>-0       [000] d.h1    54.030328: #2     context    irq timer_latency       769 ns", 0,
     RT_TIMERLAT_IRQ, 2, 769, 54030328000ull},
    /* With osnoise events: seven flag columns, large activation ids, the
     * kernel's timerlat thread as the task. */
    {"             cc1-87882   [005] d..h...   548.771078: #402268 context    irq timer_latency     13585 ns", 5,
     RT_TIMERLAT_IRQ, 402268, 13585, 548771078000ull},
    {"      timerlat/5-1035    [005] .......   548.771104: #402268 context thread timer_latency     39960 ns", 5,
     RT_TIMERLAT_THREAD, 402268, 39960, 548771104000ull},
    {"          insmod-1026    [007] d..h1..   200.202587: #29800 context    irq timer_latency      1616 ns", 7,
     RT_TIMERLAT_IRQ, 29800, 1616, 200202587000ull},
    {"      timerlat/7-1001    [007] .......   200.203445: #29800 context thread timer_latency    859978 ns", 7,
     RT_TIMERLAT_THREAD, 29800, 859978, 200203445000ull},
    /* The kernel's third context (user-space timerlat threads), a
     * nanosecond trace clock, no flags column (irq-info off), a task name
     * with blanks, brackets and ": #", a three-digit CPU. */
    {"       rtla-1234     [002] .....  100.000001: #5     context user-ret timer_latency      4000 ns", 2,
     RT_TIMERLAT_USER_RET, 5, 4000, 100000001000ull},
    {"  <idle>-0 [003] d.h1 12.123456789: #9 context irq timer_latency 1 ns", 3, RT_TIMERLAT_IRQ, 9, 1,
     12123456789ull},
    {"  <idle>-0     [003]  7.5: #9 context thread timer_latency 77 ns", 3, RT_TIMERLAT_THREAD, 9, 77, 7500000000ull},
    {"  my [odd] task: #1-42  [127] d.h1  9.000001: #3 context irq timer_latency 12 ns", 127, RT_TIMERLAT_IRQ, 3, 12,
     9000001000ull},
};

static void expect(const sample_case *c)
{
    rt_timerlat_sample s;
    bool ok = parse(c->line, &s) && s.cpu == c->cpu && s.context == c->context && s.activation == c->activation &&
              s.latency_ns == c->latency_ns && s.timestamp_ns == c->timestamp_ns;
    if (!ok)
        fprintf(stderr, "not parsed as expected: %s\n", c->line);
    CHECK(ok);
}

static void expect_none(const char *line)
{
    rt_timerlat_sample s;
    if (parse(line, &s))
        fprintf(stderr, "parsed, but is not a sample: %s\n", line);
    CHECK(!parse(line, &s));
}

int main(void)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        expect(&samples[i]);

    /* Not samples. */
    expect_none("# tracer: timerlat");
    expect_none("#         TASK-PID      CPU# ||||   TIMESTAMP    ID            CONTEXT                LATENCY");
    expect_none("");
    expect_none("             cc1-87882   [005] dNLh1..   548.771082: irq_noise: local_timer:236 start 548.771077442 "
                "duration 7597 ns");
    expect_none("             cc1-87882   [005] d...3..   548.771102: thread_noise:      cc1:87882 start "
                "548.771078243 duration 9909 ns");
    expect_none("      timerlat/7-1001    [007] ....1..   200.203446: <stack trace>");
    expect_none("  => timerlat_irq");
    expect_none("CPU:1 [LOST 1234 EVENTS]");
    expect_none("           <...>-14852   [001] ...1.  7544.677456: tracing_mark_write: portkit: latency 7.3 us");
    /* Cut short or altered. */
    expect_none("          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       932");
    expect_none("          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       932 ms");
    expect_none("          <idle>-0       [000] d.h1    54.029328: #1     context    nmi timer_latency       932 ns");
    expect_none("          <idle>-0       [000] d.h1    54.029328: #      context    irq timer_latency       932 ns");
    expect_none("          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       -9 ns");
    expect_none("          <idle>-0       [00x] d.h1    54.029328: #1     context    irq timer_latency       932 ns");
    expect_none("          <idle>-0        000  d.h1    54.029328: #1     context    irq timer_latency       932 ns");
    expect_none("          <idle>-0       [000] d.h1    54029328: #1     context    irq timer_latency       932 ns");
    expect_none("          <idle>-0       [000] d.h1    54.0293281234: #1 context    irq timer_latency     932 ns");
    expect_none(": #1 context irq timer_latency 932 ns");
    expect_none("          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency       "
                "99999999999999999999 ns");
    return TEST_EXIT();
}
