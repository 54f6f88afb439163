/* The incorrect code of the field report "Building IVI Product on ARM 64 bit
 * architecture" (section 2), made to compile and run. Each part prints what
 * it computed: run on AArch32 and on AArch64, the output shows what changes. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define N 16

struct bar {
    int    i;
    long   j;
    int    k;
    char*  p;
};

typedef union {
    double  d;
    long    l[2]; /* want: PK502 */
} long_union_t;

static void sizes(void)
{
    printf("sizeof ( struct bar ) = %d\n", (int) sizeof (struct bar));
    printf("sizeof (long_union_t ) = %d\n", (int) sizeof (long_union_t));
}

static void pointer_size(void)
{
    int a [N];
    int *p;
    int addr;

    addr = (int) a; /* want: PK101 */
    p = (int*) addr; /* want: PK102 */
    printf("p == a after the int: %d\n", p == a);
}

static void pointer_difference(void)
{
    char buf[64];
    void *p = buf, *q = buf + 40;
    long l = LONG_MAX;

    printf ("num = %d\n", q-p); /* want: PK201 */
    printf ("long max = %d\n", l); /* want: PK201 */
}

static void magic_numbers(void)
{
    char *names[4];
    unsigned long v = ~0UL;
    long l = -5;
    int i, bits = 0;

    memset(names, 0xff, sizeof names);
    memset(names, 0, 4 * 4); /* want: PK401 */
    printf("names cleared: %d\n", names[3] == NULL);
    for (i = 0; i < 32; i++) /* want: PK402 */
        if (v & (1UL << i))
            bits++;
    printf("bits counted: %d\n", bits);
    printf("0x7FFFFFFF mask: %ld\n", l & 0x7FFFFFFF); /* want: PK403 */
    printf("0x80000000 sign test: %d\n", (l & 0x80000000) != 0); /* want: PK403 */
    printf("all ones is 0xFFFFFFFF: %d\n", v == 0xFFFFFFFF); /* want: PK403 */
}

static void time_in_int(void)
{
    struct timeval tv;
    int when;

    tv.tv_sec = (time_t)2524608000LL;
    tv.tv_usec = 0;
    when = tv.tv_sec; /* want: PK302 */
    printf("time kept in int: %d\n", when == tv.tv_sec);
}

static void timeval_to_file(void)
{
    struct timeval tv = {1262304000, 500000};
    FILE *f = tmpfile();

    fwrite(&tv, sizeof tv, 1, f); /* want: PK501 */
    printf("struct timeval in the file: %ld bytes\n", ftell(f));
    fclose(f);
}

int main(void)
{
    sizes();
    pointer_size();
    pointer_difference();
    magic_numbers();
    time_in_int();
    timeval_to_file();
    return 0;
}
