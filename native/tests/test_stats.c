/* pk_median: odd and even counts, unsorted input left as it was, and the
 * cases without a median. */
#include <math.h>
#include <string.h>

#include "pk_stats.h"
#include "pk_test.h"

int main(void)
{
    const double one[] = {4.5};
    CHECK(pk_median(one, 1) == 4.5);

    double odd[] = {9, 1, 7, 3, 5};
    const double odd_before[] = {9, 1, 7, 3, 5};
    CHECK(pk_median(odd, 5) == 5);
    CHECK(!memcmp(odd, odd_before, sizeof odd)); /* the callers print the samples afterwards */

    double even[] = {40, 10, 30, 20};
    const double even_before[] = {40, 10, 30, 20};
    CHECK(pk_median(even, 4) == 25);
    CHECK(!memcmp(even, even_before, sizeof even));

    const double ties[] = {2, 2, 1, 2};
    CHECK(pk_median(ties, 4) == 2);
    const double negative[] = {-3, 0.5, -1};
    CHECK(pk_median(negative, 3) == -1);

    CHECK(isnan(pk_median(NULL, 0)));
    return TEST_EXIT();
}
