#include "rt_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_read_text(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t len = 0;
    ssize_t got = 0;
    while (len + 1 < size && (got = read(fd, buf + len, size - 1 - len)) > 0)
        len += (size_t)got;
    int saved = errno;
    bool ok = got >= 0 || len > 0;
    close(fd);
    errno = saved;
    if (!ok)
        return false;
    while (len > 0 && strchr(" \t\r\n", buf[len - 1]))
        len--;
    buf[len] = '\0';
    return true;
}

bool rt_read_long(const char *path, long long *out)
{
    char buf[64], *end;
    if (!rt_read_text(path, buf, sizeof buf))
        return false;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || end == buf || *end) {
        errno = EINVAL;
        return false;
    }
    *out = v;
    return true;
}

bool rt_write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC); /* as `echo text > file` */
    if (fd < 0)
        return false;
    size_t len = strlen(text);
    ssize_t put = write(fd, text, len);
    int saved = errno;
    close(fd);
    if (put == (ssize_t)len)
        return true;
    errno = put < 0 ? saved : EIO;
    return false;
}

char *rt_read_whole(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 65536 < max ? 65536 : max, n = 0;
    char *buf = malloc(cap + 1);
    ssize_t got = 0;
    while (buf && (got = read(fd, buf + n, cap - n)) > 0) {
        n += (size_t)got;
        if (n == cap) {
            if (cap == max) {
                got = -1;
                errno = EFBIG;
                break;
            }
            cap = cap * 2 < max ? cap * 2 : max;
            char *grown = realloc(buf, cap + 1);
            if (!grown) {
                got = -1;
                errno = ENOMEM;
                break;
            }
            buf = grown;
        }
    }
    int saved = buf ? errno : ENOMEM;
    close(fd);
    if (!buf || got < 0) {
        free(buf);
        errno = saved;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
