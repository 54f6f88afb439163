/* The AVX-512 kernel's logic on a CPU without AVX-512: crc32c_avx512.c
 * compiled against SIMDe's portable AVX-512 (see CMakeLists.txt), compared
 * with the portable implementation at every length 0..4096 and misalignment,
 * and on a large buffer. The real instructions are checked by test_crc32c
 * wherever the CPU has them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pk_test.h"
#include "portkit/crc32c.h"

uint32_t pk_crc32c_avx512_emulated(uint32_t crc, const void *buf, size_t len);
void pk_crc32c_avx512_emulated_init(void);

int main(void)
{
    pk_crc32c_fn ref = pk_crc32c_get("portable"); /* also builds the tables */
    if (!pk_crc32c_get("sse42")) {
        printf("skipped: the kernel's short paths need SSE4.2\n");
        return 0;
    }
    pk_crc32c_avx512_emulated_init();
    size_t size = (size_t)3 << 20;
    uint8_t *data = malloc(size + 64);
    uint64_t x = 88172645463325252u;
    for (size_t i = 0; i < size + 64; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        data[i] = (uint8_t)x;
    }
    int bad = 0;
    for (size_t len = 0; len <= 4096; len++) {
        size_t off = len % 64;
        uint32_t init = (uint32_t)(len * 2654435761u);
        uint32_t want = ref(init, data + off, len);
        uint32_t got = pk_crc32c_avx512_emulated(init, data + off, len);
        if (want != got && bad++ < 5)
            fprintf(stderr, "len %zu off %zu: %08x, portable %08x\n", len, off, (unsigned)got,
                    (unsigned)want);
    }
    CHECK(bad == 0);
    CHECK(pk_crc32c_avx512_emulated(0, data + 1, size - 1) == ref(0, data + 1, size - 1));
    /* Random lengths reach the region split with every kind of remainder. */
    for (int i = 0; i < 20; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t len = (size_t)(x % size), off = (size_t)(x >> 58);
        CHECK(pk_crc32c_avx512_emulated(7, data + off, len) == ref(7, data + off, len));
    }
    CHECK(pk_crc32c_avx512_emulated(0, "123456789", 9) == 0xE3069283u);
    free(data);
    printf("avx512 (emulated): checked\n");
    return TEST_EXIT();
}
