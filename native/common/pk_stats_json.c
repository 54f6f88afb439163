#include "pk_stats_json.h"

/* The percentiles every latency document reports, as keys and in ppm. */
static const struct {
    const char *key;
    uint32_t ppm;
} percentiles[] = {
    {"50", 500000}, {"90", 900000}, {"99", 990000}, {"99.9", 999000}, {"99.99", 999900},
};

void pk_hist_json(pk_json *j, const pk_hist *h)
{
    bool any = h->n > 0;
    pk_json_kv_uint(j, "samples", h->n);
    pk_json_kv_uint_or_null(j, "min_ns", any, h->min_ns);
    pk_json_kv_uint_or_null(j, "max_ns", any, h->max_ns);
    pk_json_kv_double(j, "mean_ns", pk_hist_mean_ns(h)); /* NaN writes null */
    pk_json_kv_double(j, "stddev_ns", pk_hist_stddev_ns(h));

    pk_json_key(j, "percentiles_ns");
    pk_json_begin_object(j);
    for (size_t i = 0; i < sizeof percentiles / sizeof percentiles[0]; i++)
        pk_json_kv_uint_or_null(j, percentiles[i].key, any, pk_hist_quantile_ns(h, percentiles[i].ppm));
    pk_json_end_object(j);

    pk_json_key(j, "histogram");
    pk_json_begin_object(j);
    pk_json_kv_uint(j, "bucket_ns", h->bucket_ns);
    pk_json_kv_uint_array(j, "counts", h->counts, pk_hist_used_buckets(h));
    pk_json_kv_uint(j, "overflow", h->overflow);
    pk_json_kv_uint_or_null(j, "overflow_max_ns", h->overflow > 0, h->overflow_max_ns);
    pk_json_end_object(j);

    pk_worst_sample worst[PK_HIST_MAX_WORST];
    size_t nworst = pk_hist_worst(h, worst);
    pk_json_key(j, "worst");
    pk_json_begin_array(j);
    for (size_t i = 0; i < nworst; i++) {
        pk_json_begin_object(j);
        pk_json_kv_uint(j, "ns", worst[i].ns);
        pk_json_kv_uint(j, "cycle", worst[i].cycle);
        pk_json_kv_double(j, "time_s", (double)worst[i].time_ns / 1e9);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
}

void pk_series_json(pk_json *j, const pk_series *s)
{
    pk_json_begin_object(j);
    pk_json_kv_uint(j, "block", s->block);
    pk_json_kv_uint_array(j, "max_ns", s->max_ns, pk_series_points(s));
    pk_json_end_object(j);
}
