/* scan-args: --from LP64 --to LLP64 */
/* File code for 64-bit Windows written with the 64-bit API (what MSVC
 * builds need): __int64 offsets and struct _stat64, whose st_size has 8
 * bytes. */
#include <stdio.h>
#ifdef _WIN32
#include <io.h>
#else /* the same calls on 64-bit Linux, where off_t has 64 bits */
#include <unistd.h>
#define _stat64 stat
#define _fstat64 fstat
#define _lseeki64 lseek
#define _ftelli64 ftello
#endif
#include <sys/types.h>
#include <sys/stat.h>

long long size_of(int fd)
{
    struct _stat64 st;

    if (_fstat64(fd, &st) < 0) /* ok: PK303 */
        return -1;
    return st.st_size; /* ok: PK303 */
}

long long seek_to(int fd, long long pos)
{
    return _lseeki64(fd, pos, SEEK_SET); /* ok: PK303 */
}

long long position_of(FILE *f)
{
    return _ftelli64(f); /* ok: PK303 */
}
