/* stats_tool [--bucket-ns N] [--buckets N] [--worst N] [--series-cap N]:
 * reads samples (whole nanoseconds, one per line) from stdin and writes
 * their pk_stats statistics as one JSON object, as portkit.rt/1 writes a
 * thread's: the members of pk_hist_json plus "series". Sample i (0-based
 * line) has cycle i and time i us, so the worst list can be checked.
 * Exit 2 on a bad option or a line that is not a whole number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_options.h"
#include "pk_stats.h"
#include "pk_stats_json.h"

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"bucket-ns", required_argument, NULL, 'b'}, {"buckets", required_argument, NULL, 'n'},
        {"worst", required_argument, NULL, 'w'},     {"series-cap", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0},
    };
    uint64_t bucket_ns = PK_HIST_DEFAULT_BUCKET_NS, buckets = PK_HIST_DEFAULT_RANGE_NS / PK_HIST_DEFAULT_BUCKET_NS;
    uint64_t worst = 10, series_cap = PK_SERIES_DEFAULT_CAP;
    int status = PK_CONTINUE, c;
    pk_options_start();
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': status = pk_whole_number_option("stats", "--bucket-ns", optarg, 1, 1000000000, &bucket_ns); break;
        case 'n': status = pk_whole_number_option("stats", "--buckets", optarg, 1, PK_HIST_MAX_BUCKETS, &buckets); break;
        case 'w': status = pk_whole_number_option("stats", "--worst", optarg, 0, PK_HIST_MAX_WORST, &worst); break;
        case 's': status = pk_whole_number_option("stats", "--series-cap", optarg, 2, 1000000, &series_cap); break;
        default: return pk_option_error("stats", c, argv, longopts);
        }
    }
    if (status != PK_CONTINUE)
        return status;
    pk_hist h;
    pk_series s;
    if (!pk_hist_init(&h, bucket_ns, (size_t)buckets, (size_t)worst) || !pk_series_init(&s, (size_t)series_cap))
        return pk_fail(PK_EXIT_USAGE, "stats", "cannot set up the statistics (odd --series-cap, or no memory)");

    char line[64];
    for (uint64_t i = 0; fgets(line, sizeof line, stdin); i++) {
        line[strcspn(line, "\n")] = '\0';
        int64_t v;
        if (!pk_parse_i64(line, 0, INT64_MAX, &v))
            return pk_fail(PK_EXIT_USAGE, "stats", "line %llu: '%s' is not a whole number of ns",
                           (unsigned long long)i + 1, line);
        pk_hist_add(&h, (uint64_t)v, i, i * 1000);
        pk_series_add(&s, (uint64_t)v);
    }
    pk_json j;
    pk_json_init(&j, stdout);
    pk_json_begin_object(&j);
    pk_hist_json(&j, &h);
    pk_json_key(&j, "series");
    pk_series_json(&j, &s);
    pk_json_end_object(&j);
    fputc('\n', stdout);
    pk_hist_free(&h);
    pk_series_free(&s);
    return pk_json_error(&j) ? PK_EXIT_ENV : PK_EXIT_OK;
}
