/* A packet assembler from a 32-bit gateway: the payload length goes into the
 * header's int field after a check, but the check tests the header's own
 * length, not the payload's. "Unlimited" (SIZE_MAX / 2) fits an int at home
 * and not on LP64. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct frame_header {
    int length;
    int payload;
};

static int fill(struct frame_header *h, size_t header_len, size_t payload_len)
{
    if (header_len > INT_MAX)
        return -1;
    h->length = header_len; /* ok: PK301 */
    h->payload = payload_len; /* want: PK301 */
    return 0;
}

int main(void)
{
    struct frame_header h;

    fill(&h, 16, (size_t)-1 / 2);
    printf("header %d bytes, payload %d bytes\n", h.length, h.payload);
    printf("payload length positive: %d\n", h.payload > 0);
    return 0;
}
