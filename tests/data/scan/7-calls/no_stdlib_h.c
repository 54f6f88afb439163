/* cflags: -fno-builtin */
/* (Without -fno-builtin GCC gives an undeclared malloc its built-in prototype
 * and hides the bug; the compilers this code met in 2005 did not.) */
/* A frame pool from code that never included <stdlib.h>: malloc is called
 * through an implicit declaration returning int. 1 MiB is enough for glibc
 * to mmap the pool, which puts it above 4 GiB on a 64-bit target. A write to
 * a pipe tells whether the pointer still reaches the memory (EFAULT if not). */
#include <stdio.h>
#include <unistd.h>

#define POOL_SIZE 0x100000 /* 1 MiB */

int main(void)
{
    char *pool = malloc(POOL_SIZE); /* want: PK701 */
    int fds[2];

    if (pipe(fds) != 0)
        return 1;
    printf("pool usable: %d\n", write(fds[1], pool, 16) == 16);
    return 0;
}
