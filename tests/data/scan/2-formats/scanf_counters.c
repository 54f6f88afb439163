/* Interface counters read from a /proc/net/dev style line into a struct of
 * 32-bit counters and size_t totals; the struct starts out all ones. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct if_counters {
    uint32_t rx_packets;
    uint32_t rx_errors;
    size_t rx_bytes;
    unsigned int tx_packets;
};

int main(void)
{
    const char *line = "  eth0: 1048576 812 3 0";
    struct if_counters c;

    memset(&c, 0xff, sizeof c);
    sscanf(line, " eth0: %*s %*s %" SCNu32, &c.rx_errors); /* ok: PK202 */
    sscanf(line, " eth0: %*s %lu", &c.rx_packets); /* want: PK202 */
    sscanf(line, " eth0: %u", &c.rx_bytes); /* want: PK202 */
    sscanf(line, " eth0: %*s %*s %*s %u", &c.tx_packets); /* ok: PK202 */
    printf("rx %zu bytes, %u packets, %u errors; tx %u packets\n", c.rx_bytes, (unsigned int)c.rx_packets,
           (unsigned int)c.rx_errors, c.tx_packets);
    return 0;
}
