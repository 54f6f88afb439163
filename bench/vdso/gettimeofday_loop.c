/* Independent reference for `portkit-target vdso bench`: the field report's
 * experiment done the plain way -- N gettimeofday() calls through libc, then
 * N through the raw system call, each loop timed from outside with
 * CLOCK_MONOTONIC. Prints "libc_ns_per_call syscall_ns_per_call". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 500000;
    if (calls <= 0) {
        fprintf(stderr, "usage: gettimeofday_loop [CALLS>0]\n");
        return 2;
    }
    struct timeval tv;

    double start = now_ns();
    for (long i = 0; i < calls; i++)
        gettimeofday(&tv, NULL);
    double libc_ns = (now_ns() - start) / calls;

    start = now_ns();
    for (long i = 0; i < calls; i++)
        syscall(SYS_gettimeofday, &tv, NULL);
    double syscall_ns = (now_ns() - start) / calls;

    printf("%.2f %.2f\n", libc_ns, syscall_ns);
    return 0;
}
