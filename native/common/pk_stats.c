#include "pk_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pk_median(const double *values, size_t n)
{
    double *sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted)
        return NAN;
    memcpy(sorted, values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_double);
    double m = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    free(sorted);
    return m;
}

/* ---- latency histogram ------------------------------------------------------------- */

bool pk_hist_init(pk_hist *h, uint64_t bucket_ns, size_t nbuckets, size_t worst_cap)
{
    memset(h, 0, sizeof *h);
    if (!bucket_ns || !nbuckets || nbuckets > PK_HIST_MAX_BUCKETS || worst_cap > PK_HIST_MAX_WORST)
        return false;
    h->counts = calloc(nbuckets, sizeof *h->counts);
    h->worst = calloc(worst_cap ? worst_cap : 1, sizeof *h->worst);
    if (!h->counts || !h->worst) {
        pk_hist_free(h);
        return false;
    }
    h->bucket_ns = bucket_ns;
    h->nbuckets = nbuckets;
    h->worst_cap = worst_cap;
    return true;
}

void pk_hist_free(pk_hist *h)
{
    free(h->counts);
    free(h->worst);
    memset(h, 0, sizeof *h);
}

/* Heap order: the milder sample first; of equal values the later one, so
 * that the earliest of a run of equal worst values is the one kept. */
static bool milder(const pk_worst_sample *a, const pk_worst_sample *b)
{
    return a->ns < b->ns || (a->ns == b->ns && a->cycle > b->cycle);
}

static void sift_down(pk_worst_sample *heap, size_t n, size_t i)
{
    for (;;) {
        size_t least = i, l = 2 * i + 1, r = l + 1;
        if (l < n && milder(&heap[l], &heap[least]))
            least = l;
        if (r < n && milder(&heap[r], &heap[least]))
            least = r;
        if (least == i)
            return;
        pk_worst_sample t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
    }
}

static void keep_worst(pk_hist *h, pk_worst_sample s)
{
    if (h->nworst < h->worst_cap) {
        size_t i = h->nworst++;
        h->worst[i] = s;
        while (i > 0 && milder(&h->worst[i], &h->worst[(i - 1) / 2])) {
            pk_worst_sample t = h->worst[i];
            h->worst[i] = h->worst[(i - 1) / 2];
            h->worst[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (h->worst_cap && s.ns > h->worst[0].ns) {
        h->worst[0] = s;
        sift_down(h->worst, h->nworst, 0);
    }
}

void pk_hist_add(pk_hist *h, uint64_t ns, uint64_t cycle, uint64_t time_ns)
{
    uint64_t i = ns / h->bucket_ns;
    if (i < h->nbuckets) {
        h->counts[i]++;
    } else {
        h->overflow++;
        if (ns > h->overflow_max_ns)
            h->overflow_max_ns = ns;
    }
    if (h->n == 0 || ns < h->min_ns)
        h->min_ns = ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
    h->n++;
    h->sum_ns += ns;
    double delta = (double)ns - h->mean;
    h->mean += delta / (double)h->n;
    h->m2 += delta * ((double)ns - h->mean);
    keep_worst(h, (pk_worst_sample){ns, cycle, time_ns});
}

uint64_t pk_hist_quantile_ns(const pk_hist *h, uint32_t ppm)
{
    if (h->n == 0)
        return 0;
    /* r = ceil(ppm * n / 1e6) without overflowing ppm * n. */
    uint64_t a = h->n / 1000000u, b = h->n % 1000000u;
    uint64_t rank = a * ppm + (b * ppm + 999999u) / 1000000u;
    if (rank == 0)
        rank = 1;
    uint64_t cumulative = 0;
    for (size_t i = 0; i < h->nbuckets; i++) {
        cumulative += h->counts[i];
        if (cumulative >= rank) {
            uint64_t edge = (uint64_t)(i + 1) * h->bucket_ns;
            return edge < h->max_ns ? edge : h->max_ns;
        }
    }
    return h->max_ns; /* in the overflow: its maximum is the run's */
}

double pk_hist_mean_ns(const pk_hist *h)
{
    return h->n ? (double)h->sum_ns / (double)h->n : NAN;
}

double pk_hist_stddev_ns(const pk_hist *h)
{
    return h->n ? sqrt(h->m2 / (double)h->n) : NAN;
}

size_t pk_hist_used_buckets(const pk_hist *h)
{
    size_t n = h->nbuckets;
    while (n > 0 && h->counts[n - 1] == 0)
        n--;
    return n;
}

size_t pk_hist_worst(const pk_hist *h, pk_worst_sample *out)
{
    size_t n = h->nworst;
    memcpy(out, h->worst, n * sizeof *out);
    for (size_t i = 1; i < n; i++) /* insertion sort: n <= PK_HIST_MAX_WORST */
        for (size_t j = i; j > 0 && milder(&out[j - 1], &out[j]); j--) {
            pk_worst_sample t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* ---- per-loop series --------------------------------------------------------------- */

bool pk_series_init(pk_series *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    if (cap < 2 || cap % 2)
        return false;
    s->max_ns = calloc(cap, sizeof *s->max_ns);
    if (!s->max_ns)
        return false;
    s->cap = cap;
    s->block = 1;
    return true;
}

void pk_series_free(pk_series *s)
{
    free(s->max_ns);
    memset(s, 0, sizeof *s);
}

void pk_series_add(pk_series *s, uint64_t ns)
{
    if (s->in_block == 0) {
        if (s->done == s->cap) { /* full: halve the points, double the block */
            for (size_t i = 0; i < s->cap / 2; i++) {
                uint64_t a = s->max_ns[2 * i], b = s->max_ns[2 * i + 1];
                s->max_ns[i] = a > b ? a : b;
            }
            s->done = s->cap / 2;
            s->block *= 2;
        }
        s->max_ns[s->done] = ns;
    } else if (ns > s->max_ns[s->done]) {
        s->max_ns[s->done] = ns;
    }
    if (++s->in_block == s->block) {
        s->done++;
        s->in_block = 0;
    }
}

size_t pk_series_points(const pk_series *s)
{
    return s->done + (s->in_block ? 1 : 0);
}
