/* scan-args: --from LP64 --to LLP64 */
/* File code from 64-bit Linux built for 64-bit Windows: off_t, ftello() and
 * struct stat's st_size are a 32-bit long there, so offsets and sizes of
 * 2 GiB and more no longer fit. One finding per function, at the first place
 * an offset crosses to or from the C library. */
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

typedef off_t POSITION; /* less keeps file positions in such a type */

int my_stat(const char *path, struct stat *st);

long long size_of(int fd)
{
    struct stat st;

    if (fstat(fd, &st) < 0) /* want: PK303 */
        return -1;
    return st.st_size; /* counted with the fstat above */
}

long long size_by_name(const char *path)
{
    struct stat st;

    if (my_stat(path, &st) != 0) /* want: PK303 */
        return -1;
    return st.st_size;
}

int is_directory(const char *path)
{
    struct stat st;

    /* MinGW's stat() fills st_size cut to 32 bits: st_mode is right */
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode); /* ok: PK303 */
}

int copy_size(struct stat *st, long long size)
{
    st->st_size = (off_t)size; /* want: PK303 */
    return 0;
}

int seek_to(int fd, POSITION pos)
{
    if (lseek(fd, (off_t)0, SEEK_SET) == -1) /* ok: PK303 */
        return -1;
    if (lseek(fd, pos, SEEK_SET) == -1) /* want: PK303 */
        return -1;
    return 0;
}

long long position_of(FILE *f)
{
    off_t where = ftello(f); /* want: PK303 */

    return where;
}

int rewind_file(FILE *f)
{
    if (fseeko(f, 0, SEEK_SET) != 0) /* ok: PK303 */
        return -1;
    return ftello(f) < 0 ? -1 : 0; /* ok: PK303 */
}

int seek_file(FILE *f, long long offset)
{
    return fseeko(f, (off_t)offset, SEEK_SET); /* want: PK303 */
}

POSITION next_block(POSITION pos)
{
    return pos + 8192; /* ok: PK303 */
}
