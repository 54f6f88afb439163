/* Watchdog and timeout helpers from a telematics unit: seconds kept in int. */
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

struct wd_state {
    int last_kick;
    int timeout_s;
};

int wd_expired(const struct wd_state *wd)
{
    int now = time(NULL); /* want: PK302 */

    return now - wd->last_kick > wd->timeout_s;
}

void wd_kick(struct wd_state *wd)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    wd->last_kick = ts.tv_sec; /* want: PK302 */
}

int elapsed_ms(const struct timeval *start, const struct timeval *end)
{
    int ms = (end->tv_sec - start->tv_sec) * 1000; /* want: PK302 */

    ms += (end->tv_usec - start->tv_usec) / 1000; /* want: PK301 */
    return ms;
}

/* The field report's advice for files: a deliberate 32-bit field, so the format stays. */
int32_t file_stamp(const struct timeval *tv)
{
    return (int32_t)tv->tv_sec; /* ok: PK302 */
}

time_t deadline(time_t now, int timeout_s)
{
    time_t when = now + timeout_s; /* ok: PK302 */

    return when;
}
