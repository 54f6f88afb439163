/* A command parser from a code base that never included <string.h>: strtok
 * is called through an implicit declaration, so the char * it returns comes
 * back as an int (strtok is no GCC built-in, so no prototype is assumed). */
#include <stdio.h>

int main(void)
{
    char cmd[] = "volume,12,fade";
    char *name = strtok(cmd, ","); /* want: PK701 */
    char *value = strtok(NULL, ","); /* want: PK701 */

    printf("name found in place: %d\n", name == cmd);
    printf("value found in place: %d\n", value == cmd + 7);
    return 0;
}
