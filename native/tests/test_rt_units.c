/* The small pure parts of rt: the schedule after a wake-up (missed periods
 * counted, the grid's phase kept). CPU lists: test_cpus.c. */
#include <string.h>

#include "pk_test.h"
#include "rt_thread.h"

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
    test_schedule();
    return TEST_EXIT();
}
