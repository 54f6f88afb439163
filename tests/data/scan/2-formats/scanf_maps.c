/* A memory-map reader from a crash reporter: parses /proc/<pid>/maps lines.
 * Here the line is fixed text, and the record starts out all ones. */
#include <stdio.h>
#include <string.h>

struct region {
    unsigned long start;
    unsigned long end;
    unsigned long offset;
    char perms[5];
    long inode;
};

int main(void)
{
    const char *line = "00400000-00452000 r-xp 00001000 08:02 173521 /usr/bin/dbus-daemon";
    struct region r;

    memset(&r, 0xff, sizeof r);
    sscanf(line, "%lx-%lx %4s", &r.start, &r.end, r.perms); /* ok: PK202 */
    sscanf(line, "%*s %*s %x", &r.offset); /* want: PK202 */
    sscanf(line, "%*s %*s %*s %*s %d", &r.inode); /* want: PK202 */
    printf("%s region of %lu pages\n", r.perms, (r.end - r.start) / 4096);
    printf("file offset %#lx, inode %ld\n", r.offset, r.inode);
    return 0;
}
