/* A debug protocol that sends object addresses as hex text, and the tool on
 * the other end that parses them back with strtoul. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int sensor[4];
    char msg[64];
    void *back;

    snprintf(msg, sizeof msg, "obj=%08x", sensor); /* want: PK201 */
    back = (void *)strtoul(msg + 4, NULL, 16); /* ok: PK102 */
    printf("%%x address parses back: %d\n", back == (void *)sensor);

    snprintf(msg, sizeof msg, "obj=%p", (void *)sensor); /* ok: PK201 */
    back = (void *)strtoul(msg + 4, NULL, 16); /* ok: PK102 */
    printf("%%p address parses back: %d\n", back == (void *)sensor);
    return 0;
}
