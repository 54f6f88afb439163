/* CPU lists in the kernel's form (pk_cpus), as rt's and load's --cpus and
 * rt sysinfo's /sys files use them, and the CPUs this process may use. */
#include <string.h>

#include "pk_cpus.h"
#include "pk_test.h"

static void test_cpulist(void)
{
    int cpus[PK_MAX_CPUS];
    char text[256];
    CHECK(pk_cpulist_parse("", cpus) == 0);
    CHECK(pk_cpulist_parse("0", cpus) == 1 && cpus[0] == 0);
    CHECK(pk_cpulist_parse("0-3,8,10-11", cpus) == 7 && cpus[3] == 3 && cpus[4] == 8 && cpus[6] == 11);
    CHECK(pk_cpulist_parse("5,1,3-4,1", cpus) == 4 && cpus[0] == 1 && cpus[1] == 3 && cpus[3] == 5);
    CHECK(pk_cpulist_parse("1023", cpus) == 1 && cpus[0] == 1023);
    CHECK(pk_cpulist_parse("1,0", cpus) == 2 && cpus[0] == 0 && cpus[1] == 1); /* ascending, whatever the order given */
    const char *bad[] = {"1024", "3-1", "a", "1,", ",1", "1-", "-1", "1 2", "0-3,x", "0-1x", "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(pk_cpulist_parse(bad[i], cpus) == -1);

    int n = pk_cpulist_parse("0-3,8,10-11,13", cpus);
    pk_cpulist_format(cpus, n, text, sizeof text);
    CHECK(!strcmp(text, "0-3,8,10-11,13"));
    pk_cpulist_format(cpus, 0, text, sizeof text);
    CHECK(!strcmp(text, ""));
    pk_cpulist_format(cpus, n, text, 6); /* cut, but terminated */
    CHECK(strlen(text) < 6);
}

static void test_allowed(void)
{
    int cpus[PK_MAX_CPUS];
    int n = pk_allowed_cpus(cpus);
    CHECK(n >= 1);
    for (int i = 1; i < n; i++)
        CHECK(cpus[i] > cpus[i - 1]);
}

int main(void)
{
    test_cpulist();
    test_allowed();
    return TEST_EXIT();
}
