/* The field report's corrections, and the same fixes for its other pitfalls:
 * intptr_t for addresses, the length modifier of the real type, sizes and
 * widths from sizeof, time in time_t, and a deliberate 32-bit record in the
 * file (as the report advises, so the format does not change). Prints the
 * same on AArch32 and AArch64. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define N 16

typedef union { /* ok: PK502 */
    double   d;
    uint32_t w[2];
} word_union_t;

struct tv32 {
    int32_t sec;
    int32_t usec;
};

static void pointer_size(void)
{
    int a [N];
    int *p;
    intptr_t addr;

    addr = (intptr_t) a; /* ok: PK101 */
    p = (int*) addr; /* ok: PK102 */
    printf("p == a after intptr_t: %d\n", p == a);
}

static void pointer_difference(void)
{
    char buf[64];
    void *p = buf, *q = buf + 40;

    printf ("num = %ld\n", q-p); /* ok: PK201 */
    printf ("num = %td\n", (char *)q - (char *)p); /* ok: PK201 */
}

static void magic_numbers(void)
{
    char *names[4];
    uint32_t v = UINT32_MAX;
    unsigned long lv = ~0UL;
    long l = -5;
    unsigned int i, bits = 0;

    memset(names, 0xff, sizeof names);
    memset(names, 0, 4 * sizeof(char *)); /* ok: PK401 */
    printf("names cleared: %d\n", names[3] == NULL);
    for (i = 0; i < 32; i++) /* ok: PK402 */
        if (v & (UINT32_C(1) << i))
            bits++;
    printf("bits counted: %u\n", bits);
    printf("LONG_MAX mask keeps a positive value: %d\n", (l & LONG_MAX) > 0); /* ok: PK403 */
    printf("sign test: %d\n", l < 0);
    printf("all ones is ULONG_MAX: %d\n", lv == ULONG_MAX); /* ok: PK403 */
}

static void time_kept(void)
{
    struct timeval tv;
    time_t when;

    tv.tv_sec = (time_t)2145916800LL;
    tv.tv_usec = 0;
    when = tv.tv_sec; /* ok: PK302 */
    printf("time kept in time_t: %d\n", when == tv.tv_sec);
}

static void timeval_to_file(void)
{
    struct timeval tv = {1262304000, 500000};
    struct tv32 rec;
    FILE *f = tmpfile();

    rec.sec = (int32_t)tv.tv_sec; /* ok: PK302 */
    rec.usec = (int32_t)tv.tv_usec; /* ok: PK301 */
    fwrite(&rec, sizeof rec, 1, f); /* ok: PK501 */
    printf("32-bit timeval record in the file: %ld bytes\n", ftell(f));
    fclose(f);
}

int main(void)
{
    word_union_t u;

    u.d = 1.0;
    printf("high word of 1.0: %#x\n", (unsigned int)u.w[1]);
    pointer_size();
    pointer_difference();
    magic_numbers();
    time_kept();
    timeval_to_file();
    return 0;
}
