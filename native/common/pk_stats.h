/* Statistics over the samples the agent takes: the median of a bench's
 * repeats, and constant-memory latency statistics for long runs (rt). */
#ifndef PK_STATS_H
#define PK_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The median of values[0..n): the middle value once sorted, or the mean of
 * the two middle ones for an even n. values is left as it was (the benches
 * report their samples in the order taken). NaN for n == 0 or when there is
 * no memory for the sorted copy. */
double pk_median(const double *values, size_t n);

/* ---- latency histogram --------------------------------------------------------------
 *
 * Every sample (a non-negative number of nanoseconds) updates, in O(1):
 *   - a histogram of nbuckets buckets of bucket_ns each: bucket i counts the
 *     samples in [i*bucket_ns, (i+1)*bucket_ns); samples from nbuckets*bucket_ns
 *     up count as overflow, whose largest value is kept;
 *   - count, min, max and the exact sum (uint64: 584 years of summed latency);
 *   - Welford's running mean and sum of squared deviations, in double. Not a
 *     sum of squares: __int128 does not exist on the 32-bit targets and long
 *     double is double on ARM, where E[x^2] - E[x]^2 cancels away the digits of
 *     a narrow distribution far from zero (10 us +- 50 ns); Welford does not;
 *   - the worst samples so far, in a min-heap of worst_cap entries (log N).
 * Memory is allocated once by pk_hist_init; adding never allocates.
 *
 * Percentiles are read from the histogram. The q-quantile of n samples is the
 * order statistic x(r), r = ceil(q*n) (1-based; numpy's "inverted_cdf"). The
 * histogram reports the upper edge of the bucket where the cumulative count
 * first reaches r, capped at the maximum: never below x(r) and at most one
 * bucket above it. When x(r) lies in the overflow, it reports the maximum
 * (an upper bound only). */

#define PK_HIST_DEFAULT_BUCKET_NS 1000u          /* 1 us, as cyclictest's histogram */
#define PK_HIST_DEFAULT_RANGE_NS 100000000u      /* 0 .. 100 ms */
#define PK_HIST_MAX_BUCKETS 10000000u            /* 80 MB of counts at the most */
#define PK_HIST_MAX_WORST 64u

typedef struct pk_worst_sample {
    uint64_t ns;      /* the sample */
    uint64_t cycle;   /* its loop number (0-based) */
    uint64_t time_ns; /* when it was taken, from the start of the run */
} pk_worst_sample;

typedef struct pk_hist {
    uint64_t bucket_ns;
    size_t nbuckets;
    uint64_t *counts;
    uint64_t overflow, overflow_max_ns;
    uint64_t n, min_ns, max_ns, sum_ns;
    double mean, m2; /* Welford: running mean, sum of squared deviations */
    pk_worst_sample *worst; /* min-heap on ns: worst[0] is the mildest kept */
    size_t nworst, worst_cap;
} pk_hist;

/* Sets h up empty; false (nothing allocated) when out of memory or when
 * bucket_ns is 0, nbuckets is 0 or above PK_HIST_MAX_BUCKETS, or worst_cap
 * above PK_HIST_MAX_WORST. */
bool pk_hist_init(pk_hist *h, uint64_t bucket_ns, size_t nbuckets, size_t worst_cap);
void pk_hist_free(pk_hist *h);

void pk_hist_add(pk_hist *h, uint64_t ns, uint64_t cycle, uint64_t time_ns);

/* The percentile for q = ppm / 1e6 (999900: p99.99) as defined above; 0 when
 * there are no samples. ppm in 1..1000000. */
uint64_t pk_hist_quantile_ns(const pk_hist *h, uint32_t ppm);
/* Mean (sum / n) and population standard deviation (divides by n, numpy's
 * default); NaN without samples. */
double pk_hist_mean_ns(const pk_hist *h);
double pk_hist_stddev_ns(const pk_hist *h);
/* The buckets up to the last non-zero one (trailing zeros trimmed). */
size_t pk_hist_used_buckets(const pk_hist *h);
/* The worst samples, worst first (equal values: earlier cycle first), into
 * out[worst_cap]; returns how many. */
size_t pk_hist_worst(const pk_hist *h, pk_worst_sample *out);

/* ---- per-loop series ----------------------------------------------------------------
 *
 * For plots of latency over a run of any length in constant memory: the
 * maximum of each block of `block` consecutive samples. block starts at 1;
 * when cap points are full and another block begins, neighbouring points
 * merge pairwise (their maximum) and block doubles, so a run keeps between
 * cap/2 and cap points. Point i covers samples [i*block, (i+1)*block); the
 * last point may cover fewer (the block under way). */

#define PK_SERIES_DEFAULT_CAP 2000u

typedef struct pk_series {
    uint64_t *max_ns; /* cap entries */
    size_t cap;       /* even, >= 2 */
    size_t done;      /* completed blocks */
    uint64_t block;   /* samples per point */
    uint64_t in_block; /* samples in the block under way (its max: max_ns[done]) */
} pk_series;

bool pk_series_init(pk_series *s, size_t cap);
void pk_series_free(pk_series *s);
void pk_series_add(pk_series *s, uint64_t ns);
/* Points in max_ns[]: the completed blocks and the one under way, if any. */
size_t pk_series_points(const pk_series *s);

#endif
