/* Helpers that start other programs. execl's list ends with a null pointer,
 * which old code wrote as a plain 0, or as NULL from a vendor header that
 * defined it as 0: an int, half a pointer's width on LP64. */
#include <stddef.h>
#include <unistd.h>

#undef NULL
#define NULL 0

int run_shell(const char *cmd)
{
    return execl("/bin/sh", "sh", "-c", cmd, 0); /* want: PK703 */
}

int run_mount(const char *dev, const char *dir)
{
    return execlp("mount", "mount", dev, dir, NULL); /* want: PK703 */
}

int run_shell_fixed(const char *cmd)
{
    return execl("/bin/sh", "sh", "-c", cmd, (char *)0); /* ok: PK703 */
}

int run_mount_fixed(const char *dev, const char *dir)
{
    return execlp("mount", "mount", dev, dir, (char *)NULL); /* ok: PK703 */
}
