/* Times kept in time_t, or int64_t where a file needs a fixed width;
 * durations in double; the broken-down fields of struct tm are int by
 * definition. */
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

int main(void)
{
    struct tm tm = {0};
    struct timeval tv;
    char text[32];
    time_t t;
    int64_t stored;
    long long later;
    double span;
    int year;
    int ms;

    tm.tm_year = 2021 - 1900;
    tm.tm_mon = 5;
    tm.tm_mday = 1;
    tm.tm_hour = 12;
    t = timegm(&tm); /* ok: PK302 */
    stored = t; /* ok: PK302 */
    later = t + 3600; /* ok: PK302 */
    span = difftime(t + 90, t); /* ok: PK302 */
    year = gmtime(&t)->tm_year + 1900; /* ok: PK302 */
    tv.tv_sec = t;
    tv.tv_usec = 250000;
    ms = (int)(tv.tv_usec / 1000); /* ok: PK301 */
    strftime(text, sizeof text, "%Y-%m-%d %H:%M", gmtime(&t));
    printf("%s: %lld, an hour later %lld\n", text, (long long)stored, later);
    printf("span %.0f s, year %d, %d ms\n", span, year, ms);
    return 0;
}
