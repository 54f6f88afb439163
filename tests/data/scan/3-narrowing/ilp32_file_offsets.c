/* scan-args: --from LP64 --to ILP32 */
/* File code from 64-bit Linux built for 32-bit Linux without
 * _FILE_OFFSET_BITS=64: off_t and st_size are 4 bytes there, so stat() of a
 * file of 2 GiB or more fails with EOVERFLOW and offsets past 2 GiB wrap. */
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

long long size_by_name(const char *path)
{
    struct stat st;

    if (stat(path, &st) != 0) /* want: PK303 */
        return -1;
    printf("%lld\n", (long long)st.st_size);
    return st.st_size;
}

int is_directory(const struct stat *st)
{
    return S_ISDIR(st->st_mode); /* ok: PK303 */
}

int grow(int fd, off_t size)
{
    return ftruncate(fd, size); /* want: PK303 */
}

void *map_at(int fd, size_t length, off_t offset)
{
    return mmap(NULL, length, PROT_READ, MAP_SHARED, fd, offset); /* want: PK303 */
}

void *map_start(int fd, size_t length)
{
    return mmap(NULL, length, PROT_READ, MAP_SHARED, fd, 0); /* ok: PK303 */
}

long long end_of(int fd)
{
    return lseek(fd, 0, SEEK_END); /* want: PK303 */
}

void skip_back(int fd)
{
    (void)lseek(fd, -4, SEEK_CUR); /* ok: PK303 */
}
