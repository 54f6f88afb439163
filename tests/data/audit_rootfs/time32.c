/* A 32-bit program built without -D_TIME_BITS=64: it imports clock_gettime,
   gettimeofday, time and stat, each with a 32-bit time_t. */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

int main(int argc, char **argv)
{
    struct timespec ts;
    struct timeval tv;
    struct stat st;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    gettimeofday(&tv, NULL);
    if (argc > 1 && stat(argv[1], &st) == 0)
        printf("%ld\n", (long) st.st_mtime);
    printf("%ld %ld %ld\n", (long) ts.tv_sec, (long) tv.tv_sec, (long) time(NULL));
    return 0;
}
