/* The field report's "struct timeval written to a file": a trip logger stores each
 * event time as the raw struct, and reads back the logs the 32-bit unit wrote
 * (two records, 2010-01-01 00:00:00.25 and a minute later). */
#include <stdio.h>
#include <sys/time.h>

static const unsigned char old_log[16] = {
    0x00, 0x3b, 0x3d, 0x4b, 0x90, 0xd0, 0x03, 0x00,
    0x3c, 0x3b, 0x3d, 0x4b, 0x00, 0x00, 0x00, 0x00,
};

int main(void)
{
    struct timeval tv, first;
    FILE *log = tmpfile();
    FILE *old = fmemopen((void *)old_log, sizeof old_log, "rb");

    tv.tv_sec = 1262304000;
    tv.tv_usec = 500000;
    fwrite(&tv, sizeof tv, 1, log); /* want: PK501 */
    printf("one record takes %ld bytes of the log\n", ftell(log));
    if (fread(&first, sizeof(struct timeval), 1, old) == 1) /* want: PK501 */
        printf("first old record: %lld.%06ld\n", (long long)first.tv_sec, first.tv_usec);
    else
        printf("first old record: unreadable\n");
    fclose(old);
    fclose(log);
    return 0;
}
