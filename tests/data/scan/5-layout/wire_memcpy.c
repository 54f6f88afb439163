/* A diagnostics frame from a 32-bit ECU, decoded by copying the received
 * bytes over the struct the ECU's own code used. The v2 frame has a layout
 * of fixed-width fields. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct diag_frame {
    uint16_t magic;
    uint16_t version;
    long sequence;
    unsigned long length;
    uint8_t flags;
};

struct diag_frame_v2 {
    uint16_t magic;
    uint16_t version;
    int32_t sequence;
    uint32_t length;
    uint8_t flags;
};

static const unsigned char rx[64] = {
    0x7e, 0xd1, 0x02, 0x00, 0x2a, 0x00, 0x00, 0x00,
    0x40, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
};

int main(void)
{
    struct diag_frame fr;
    struct diag_frame_v2 fr2;

    memcpy(&fr, rx, sizeof fr); /* want: PK501 */
    memcpy(&fr2, rx, sizeof fr2); /* ok: PK501 */
    printf("v1: seq %ld, length %lu, flags %u\n", fr.sequence, fr.length, fr.flags);
    printf("v2: seq %d, length %u, flags %u\n", (int)fr2.sequence, (unsigned int)fr2.length, fr2.flags);
    return 0;
}
