/* Narrowing that is the same on every target: from a type that is 64 bits on
 * ILP32 too (int64_t, long long), into a type already narrower than its source
 * there (int to short), from double, from a constant that fits, or by an
 * explicit cast. None of it changes with the port. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const modes[] = {"off", "eco", "normal", "sport"};

int main(void)
{
    int64_t total_us = 7500123;
    long long frames = 90000;
    int value = 70000;
    double ratio = 0.75;
    int ms = total_us / 1000; /* ok: PK301 */
    int per_min = frames / 60; /* ok: PK301 */
    short s = value; /* ok: PK301 */
    unsigned char lo = value; /* ok: PK301 */
    int nmodes = ARRAY_SIZE(modes); /* ok: PK301 */
    int pct = ratio * 100; /* ok: PK301 */
    int name_len = (int)strlen(modes[2]); /* ok: PK301 */
    int32_t drift = (int32_t)(total_us - 7000000); /* ok: PK301 */

    printf("%d ms, %d per minute, %d %d\n", ms, per_min, s, lo);
    printf("%d modes, %d%%, \"%s\" is %d long, drift %d\n", nmodes, pct, modes[2], name_len, (int)drift);
    return 0;
}
