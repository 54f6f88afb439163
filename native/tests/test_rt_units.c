/* The small pure parts of rt: CPU lists in the kernel's form, and the
 * schedule after a wake-up (missed periods counted, the grid's phase kept). */
#include <string.h>

#include "pk_test.h"
#include "rt_cpulist.h"
#include "rt_thread.h"

static void test_cpulist(void)
{
    int cpus[RT_MAX_CPUS];
    char text[256];
    CHECK(rt_cpulist_parse("", cpus) == 0);
    CHECK(rt_cpulist_parse("0", cpus) == 1 && cpus[0] == 0);
    CHECK(rt_cpulist_parse("0-3,8,10-11", cpus) == 7 && cpus[3] == 3 && cpus[4] == 8 && cpus[6] == 11);
    CHECK(rt_cpulist_parse("5,1,3-4,1", cpus) == 4 && cpus[0] == 1 && cpus[1] == 3 && cpus[3] == 5);
    CHECK(rt_cpulist_parse("1023", cpus) == 1 && cpus[0] == 1023);
    const char *bad[] = {"1024", "3-1", "a", "1,", ",1", "1-", "-1", "1 2", "0-3,x", "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(rt_cpulist_parse(bad[i], cpus) == -1);

    int n = rt_cpulist_parse("0-3,8,10-11,13", cpus);
    rt_cpulist_format(cpus, n, text, sizeof text);
    CHECK(!strcmp(text, "0-3,8,10-11,13"));
    rt_cpulist_format(cpus, 0, text, sizeof text);
    CHECK(!strcmp(text, ""));
    rt_cpulist_format(cpus, n, text, 6); /* cut, but terminated */
    CHECK(strlen(text) < 6);
}

static void test_schedule(void)
{
    const uint64_t period = 1000;
    uint64_t next = 10000;
    /* On time: one period on, nothing missed. */
    CHECK(rt_schedule_next(&next, 10005, period) == 0 && next == 11000);
    /* Woke exactly when the next one was due: not missed (cyclictest's
     * strict "now > next"). */
    CHECK(rt_schedule_next(&next, 12000, period) == 0 && next == 12000);
    next = 12000;
    /* Woke 2.5 periods late: 12000 -> 13000 and 14000 have passed; the
     * next is 15000, on the same grid. */
    CHECK(rt_schedule_next(&next, 14500, period) == 2 && next == 15000);
    /* A long stall: counted without looping over each period. */
    next = 0;
    CHECK(rt_schedule_next(&next, 1000000000500ull, period) == 1000000000ull && next == 1000000001000ull);
}

int main(void)
{
    test_cpulist();
    test_schedule();
    return TEST_EXIT();
}
