/* A job queue's copies inside one 32-bit telematics process: records with a
 * long and a pointer are copied into memory the program allocated for them,
 * and back. No byte leaves the process, so the layout never meets the other
 * data model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
    long id;
    const char *name;
    int prio;
};

int main(void)
{
    struct job j = {42, "backup", 3}, back;
    void *slot = malloc(sizeof j);

    if (slot == NULL)
        return 1;
    memcpy(slot, &j, sizeof j); /* ok: PK501 */
    memcpy(&back, slot, sizeof back); /* ok: PK501 */
    printf("job %ld %s priority %d\n", back.id, back.name, back.prio);
    free(slot);
    return 0;
}
