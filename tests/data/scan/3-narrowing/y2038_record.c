/* An event recorder whose flash record keeps its timestamp in an int, filled
 * from a struct timeval. The timestamps are fixed: 2010, 2038-01-01 and 2050
 * (which a 32-bit time_t cannot hold either: there both sides wrap alike). */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#define NSTAMPS 3

struct event_rec {
    int stamp;
    unsigned short code;
    unsigned short len;
};

static void record(struct event_rec *r, const struct timeval *tv, unsigned short code)
{
    r->stamp = tv->tv_sec; /* want: PK302 */
    r->code = code;
    r->len = 0;
}

int main(void)
{
    const long long stamps[NSTAMPS] = {1262304000LL, 2145916800LL, 2524608000LL};
    int started = time(NULL); /* want: PK302 */
    int i;

    printf("started after 2001: %d\n", started > 1000000000);
    for (i = 0; i < NSTAMPS; i++) {
        struct timeval tv;
        struct event_rec r;

        tv.tv_sec = stamps[i];
        tv.tv_usec = 0;
        record(&r, &tv, 7);
        printf("record %d keeps its time: %d\n", i, r.stamp == tv.tv_sec);
    }
    return 0;
}
