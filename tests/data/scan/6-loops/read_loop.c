/* A sensor packet parser: the byte count comes from read() as ssize_t, the
 * index is an unsigned int. Here the read fails and returns -1. */
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

#define BUF_LEN 64

int main(void)
{
    unsigned char buf[BUF_LEN] = {0};
    ssize_t n = read(-1, buf, BUF_LEN);
    unsigned int i, parsed = 0;

    for (i = 0; i < n && i < BUF_LEN; i++) /* want: PK601 */
        parsed++;
    printf("bytes parsed after a failed read: %u\n", parsed);
    return 0;
}
