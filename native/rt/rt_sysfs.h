/* Reading and writing the small text files of /proc, /sys and tracefs. Each
 * call opens, does one bounded read or write, and closes; on failure it
 * returns false with errno set, so callers can say why. */
#ifndef RT_SYSFS_H
#define RT_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

/* The file's text (cut at size - 1 bytes), trailing white space removed. */
bool rt_read_text(const char *path, char *buf, size_t size);
/* A whole decimal number (after trimming). */
bool rt_read_long(const char *path, long long *out);
/* Writes text in one write(), as tracefs and sysfs want it, opening the file
 * as the shell's `echo text > file` does (O_TRUNC: never for tracefs's trace
 * or set_event, where it clears). */
bool rt_write_text(const char *path, const char *text);
/* The whole file into a malloc'd buffer, NUL-terminated (not counted in
 * *len); NULL with errno set (EFBIG: max bytes or more). */
char *rt_read_whole(const char *path, size_t max, size_t *len);

#endif
