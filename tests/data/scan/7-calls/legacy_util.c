/* Utility code from a 2004 code base that relied on implicit declarations:
 * getenv and strerror return char *, and without their headers every call
 * returns int. */
#include <stdio.h>

const char *config_dir(void)
{
    const char *dir = getenv("APP_CONFIG_DIR"); /* want: PK701 */

    return dir != NULL ? dir : "/etc/app";
}

void report_error(int err)
{
    const char *msg = strerror(err); /* want: PK701 */

    fprintf(stderr, "error: %s\n", msg);
}

int log_error(FILE *f, int err)
{
    return fprintf(f, "error %d\n", err); /* ok: PK701 */
}
