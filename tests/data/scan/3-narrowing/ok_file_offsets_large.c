/* scan-args: --from LP64 --to ILP32 -D_FILE_OFFSET_BITS=64 */
/* cflags: -D_FILE_OFFSET_BITS=64 */
/* The same file code built with large-file support (autoconf's
 * AC_SYS_LARGEFILE): off_t and st_size are 8 bytes on 32-bit Linux too. */
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

long long size_of(int fd)
{
    struct stat st;

    if (fstat(fd, &st) < 0) /* ok: PK303 */
        return -1;
    return st.st_size; /* ok: PK303 */
}

long long tell(FILE *f)
{
    off_t where = ftello(f); /* ok: PK303 */

    return where;
}

int seek_to(int fd, off_t pos)
{
    return lseek(fd, pos, SEEK_SET) == -1 ? -1 : 0; /* ok: PK303 */
}
