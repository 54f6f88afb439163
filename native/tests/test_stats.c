/* pk_median: odd and even counts, unsorted input left as it was, and the
 * cases without a median. The latency histogram: buckets and overflow,
 * percentiles by their definition (pk_stats.h), Welford against the
 * two-pass formula, the worst-samples heap, and the series' merging. */
#include <math.h>
#include <string.h>

#include "pk_stats.h"
#include "pk_test.h"

static void test_median(void)
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
}

static void test_setup_limits(void)
{
    pk_hist h;
    CHECK(!pk_hist_init(&h, 0, 10, 1));
    CHECK(!pk_hist_init(&h, 1000, 0, 1));
    CHECK(!pk_hist_init(&h, 1000, PK_HIST_MAX_BUCKETS + 1, 1));
    CHECK(!pk_hist_init(&h, 1000, 10, PK_HIST_MAX_WORST + 1));
    CHECK(pk_hist_init(&h, 1000, 10, 0));
    pk_hist_add(&h, 5, 0, 0); /* no worst list kept: nothing breaks */
    pk_worst_sample w[1];
    CHECK(pk_hist_worst(&h, w) == 0);
    pk_hist_free(&h);

    pk_series s;
    CHECK(!pk_series_init(&s, 0));
    CHECK(!pk_series_init(&s, 3)); /* pairs merge: the capacity is even */
}

static void test_empty(void)
{
    pk_hist h;
    CHECK(pk_hist_init(&h, 1000, 100, 4));
    CHECK(h.n == 0 && pk_hist_used_buckets(&h) == 0);
    CHECK(pk_hist_quantile_ns(&h, 500000) == 0);
    CHECK(isnan(pk_hist_mean_ns(&h)) && isnan(pk_hist_stddev_ns(&h)));
    pk_hist_free(&h);
}

/* Buckets are [i*w, (i+1)*w); the range's end and beyond are overflow. */
static void test_buckets_and_overflow(void)
{
    pk_hist h;
    CHECK(pk_hist_init(&h, 1000, 10, 4));
    const uint64_t samples[] = {0, 999, 1000, 9999, 10000, 123456, 20000};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        pk_hist_add(&h, samples[i], i, i * 1000);
    CHECK(h.counts[0] == 2 && h.counts[1] == 1 && h.counts[9] == 1);
    CHECK(h.overflow == 3 && h.overflow_max_ns == 123456);
    CHECK(h.n == 7 && h.min_ns == 0 && h.max_ns == 123456);
    CHECK(h.sum_ns == 0 + 999 + 1000 + 9999 + 10000 + 123456 + 20000);
    CHECK(pk_hist_used_buckets(&h) == 10);
    pk_hist_free(&h);
}

/* x(r), r = ceil(q n), reported as its bucket's upper edge capped at max. */
static void test_percentiles(void)
{
    pk_hist h;
    CHECK(pk_hist_init(&h, 1000, 1000, 4));
    for (uint64_t v = 1; v <= 1000; v++) /* 1000 samples: 1000, 2000, ... 1000000 ns */
        pk_hist_add(&h, v * 1000 - 500, v, v);
    /* p50: r = 500, x(500) = 499500, in bucket 499: edge 500000. */
    CHECK(pk_hist_quantile_ns(&h, 500000) == 500000);
    /* p99.9: r = ceil(999.0) = 999 exactly, not 1000. */
    CHECK(pk_hist_quantile_ns(&h, 999000) == 999000);
    /* p99.99: r = ceil(999.9) = 1000: x(1000) = 999500 is the max: capped. */
    CHECK(pk_hist_quantile_ns(&h, 999900) == 999500);
    CHECK(pk_hist_quantile_ns(&h, 1) == 1000); /* r = 1: the minimum's bucket */
    pk_hist_free(&h);

    /* One sample: every percentile is it (capped edge). */
    CHECK(pk_hist_init(&h, 1000, 10, 4));
    pk_hist_add(&h, 4321, 0, 0);
    CHECK(pk_hist_quantile_ns(&h, 500000) == 4321 && pk_hist_quantile_ns(&h, 999900) == 4321);
    pk_hist_free(&h);

    /* In the overflow: the maximum. */
    CHECK(pk_hist_init(&h, 1000, 10, 4));
    for (int i = 0; i < 98; i++)
        pk_hist_add(&h, 500, (uint64_t)i, 0);
    pk_hist_add(&h, 50000, 98, 0);
    pk_hist_add(&h, 70000, 99, 0);
    CHECK(pk_hist_quantile_ns(&h, 990000) == 70000); /* x(99) = 50000 overflowed */
    CHECK(pk_hist_quantile_ns(&h, 500000) == 1000);  /* bucket 0's upper edge */
    pk_hist_free(&h);

    /* A count past 2^32 in one bucket and ranks past 1e6 samples. */
    CHECK(pk_hist_init(&h, 1000, 10, 1));
    h.counts[2] = 5000000000ull;
    h.counts[3] = 1;
    h.n = 5000000001ull;
    h.min_ns = 2000;
    h.max_ns = 3500;
    CHECK(pk_hist_quantile_ns(&h, 999900) == 3000);
    CHECK(pk_hist_quantile_ns(&h, 1000000) == 3500);
    pk_hist_free(&h);
}

/* Welford on a narrow distribution far from zero, where the sum of squares
 * in double loses the variance. */
static void test_mean_and_stddev(void)
{
    pk_hist h;
    CHECK(pk_hist_init(&h, 1000, 100, 4));
    const uint64_t base = 1000000000000ull; /* 1000 s */
    double sum = 0, sumsq = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        uint64_t v = base + (i % 2 ? 3 : 1); /* mean base+2, stddev exactly 1 */
        pk_hist_add(&h, v, i, 0);
        sum += (double)v;
        sumsq += (double)v * (double)v;
    }
    CHECK(pk_hist_mean_ns(&h) == (double)(base + 2));
    CHECK(fabs(pk_hist_stddev_ns(&h) - 1.0) < 1e-6);
    double naive = sumsq / 10000 - (sum / 10000) * (sum / 10000);
    CHECK(fabs(naive - 1.0) > 1.0); /* the formula Welford replaces is far off */
    CHECK(h.overflow == 10000);
    pk_hist_free(&h);
}

static void test_worst(void)
{
    pk_hist h;
    CHECK(pk_hist_init(&h, 1000, 100, 3));
    const uint64_t samples[] = {5, 9, 1, 9, 7, 3, 12, 9};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        pk_hist_add(&h, samples[i], i, 100 * i);
    pk_worst_sample w[3];
    CHECK(pk_hist_worst(&h, w) == 3);
    /* 12 (cycle 6), then the two earliest 9s (cycles 1 and 3; cycle 7 is not kept). */
    CHECK(w[0].ns == 12 && w[0].cycle == 6 && w[0].time_ns == 600);
    CHECK(w[1].ns == 9 && w[1].cycle == 1);
    CHECK(w[2].ns == 9 && w[2].cycle == 3);
    pk_hist_free(&h);
}

static void test_series(void)
{
    pk_series s;
    CHECK(pk_series_init(&s, 4));
    for (uint64_t i = 0; i < 3; i++)
        pk_series_add(&s, 10 + i);
    CHECK(s.block == 1 && pk_series_points(&s) == 3);
    pk_series_add(&s, 1);
    CHECK(pk_series_points(&s) == 4 && s.block == 1);
    pk_series_add(&s, 50); /* full: [10 11 12 1] -> [11 12], block 2, then 50 under way */
    CHECK(s.block == 2 && pk_series_points(&s) == 3);
    CHECK(s.max_ns[0] == 11 && s.max_ns[1] == 12 && s.max_ns[2] == 50);
    pk_series_add(&s, 2);
    CHECK(pk_series_points(&s) == 3 && s.max_ns[2] == 50);
    /* Many samples: the points stay within [cap/2, cap] and cover them all. */
    for (uint64_t i = 0; i < 100000; i++)
        pk_series_add(&s, i == 77777 ? 999 : 5);
    size_t points = pk_series_points(&s);
    CHECK(points >= 2 && points <= 4);
    CHECK((points - 1) * s.block < 100006 && points * s.block >= 100006);
    uint64_t top = 0;
    for (size_t i = 0; i < points; i++)
        top = s.max_ns[i] > top ? s.max_ns[i] : top;
    CHECK(top == 999);
    pk_series_free(&s);
}

int main(void)
{
    test_median();
    test_setup_limits();
    test_empty();
    test_buckets_and_overflow();
    test_percentiles();
    test_mean_and_stddev();
    test_worst();
    test_series();
    return TEST_EXIT();
}
