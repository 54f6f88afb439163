/* A raw system call from ARM EABI code that wanted no libc wrapper: the
 * number goes in r7 (saved by hand, it is Thumb's frame pointer) and svc #0
 * traps. AArch64 has other registers and other numbers; syscall(2) is the
 * portable way. */
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__arm__)
long raw_getpid(void)
{
    long ret;

    __asm__ __volatile__("push {r7}\n\tmov r7, #20\n\tsvc #0\n\tpop {r7}\n\tmov %0, r0" : "=r"(ret) : : "r0", "memory"); /* want: PK801 */
    return ret;
}
#endif

long portable_getpid(void)
{
    return syscall(SYS_getpid); /* ok: PK801 */
}
