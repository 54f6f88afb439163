/* A message queue from an RTOS porting layer: WORD_SIZE and PTR_SIZE are the
 * BSP's idea of how big a pointer is. */
#include <stdio.h>
#include <string.h>

#define WORD_SIZE 4
#define PTR_SIZE 4
#define QUEUE_LEN 4

int main(void)
{
    char a, b, c, d;
    void *queue[QUEUE_LEN] = {&a, &b, &c, &d};
    void *saved[QUEUE_LEN] = {NULL, NULL, NULL, NULL};

    memcpy(saved, queue, QUEUE_LEN * PTR_SIZE); /* want: PK401 */
    memmove(&queue[0], &queue[1], (QUEUE_LEN - 1) * WORD_SIZE); /* want: PK401 */
    printf("after removing the head: %d %d %d\n", queue[0] == &b, queue[1] == &c, queue[2] == &d);
    printf("saved copy complete: %d\n", saved[3] == &d);
    return 0;
}
