/* A callback table and its counters, cleared and saved with sizes written
 * for 4-byte pointers and longs. */
#include <stdio.h>
#include <string.h>

#define MAX_CB 8

typedef void (*callback_t)(int);

static void on_event(int code)
{
    (void)code;
}

static int count_set(callback_t *t, int n)
{
    int i, c = 0;

    for (i = 0; i < n; i++)
        if (t[i])
            c++;
    return c;
}

int main(void)
{
    callback_t table[MAX_CB];
    callback_t backup[MAX_CB];
    long counters[MAX_CB];
    long left = 0;
    int i;

    for (i = 0; i < MAX_CB; i++) {
        table[i] = on_event;
        counters[i] = 1;
    }
    memset(backup, 0, sizeof backup); /* ok: PK401 */
    memcpy(backup, table, MAX_CB * 4); /* want: PK401 */
    memset(table, 0, MAX_CB * 4); /* want: PK401 */
    memset(counters, 0, MAX_CB * 4); /* want: PK401 */
    for (i = 0; i < MAX_CB; i++)
        left += counters[i];
    printf("callbacks backed up: %d\n", count_set(backup, MAX_CB));
    printf("callbacks left after clear: %d\n", count_set(table, MAX_CB));
    printf("counts left after clear: %ld\n", left);
    return 0;
}
