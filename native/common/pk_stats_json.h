/* The latency statistics of pk_stats.h as JSON (portkit.rt/1, docs/formats.md). */
#ifndef PK_STATS_JSON_H
#define PK_STATS_JSON_H

#include "pk_json.h"
#include "pk_stats.h"

/* Writes the members samples, min_ns, max_ns, mean_ns, stddev_ns,
 * percentiles_ns {"50", "90", "99", "99.9", "99.99"}, histogram {bucket_ns,
 * counts[] (trailing zeros trimmed), overflow, overflow_max_ns} and
 * worst[] {ns, cycle, time_s} into the object that is open. Without samples
 * the values that do not exist are null. */
void pk_hist_json(pk_json *j, const pk_hist *h);

/* {block, max_ns[]} as the value of the key just written. */
void pk_series_json(pk_json *j, const pk_series *s);

#endif
