/* scan-args: --to LLP64 */
/* Linux code built for Win64: long stays 4 bytes while pointers and intptr_t
 * grow to 8, so a long's pointer over an address-sized slot no longer covers
 * it; over an int it still does. */
#include <stdint.h>

static void store_long(long *slot, long value)
{
    *slot = value;
}

intptr_t handle_slot;
void *context_slot;
int flags;

void reset(void)
{
    store_long((long *)&handle_slot, 0); /* want: PK103 */
    *(long *)&context_slot = 0; /* want: PK103 */
    store_long((long *)&flags, 1); /* ok: PK103 */
}
