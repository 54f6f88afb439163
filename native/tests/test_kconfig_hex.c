/* kconfig_hex: the bytes of `portkit-target kconfig --json`, round-tripping
 * (reading the file: test_kconfig_reader.c). */
#include <stdlib.h>
#include <string.h>

#include "kconfig_hex.h"
#include "pk_test.h"

int main(void)
{
    const unsigned char bytes[] = {0x00, 0x1f, 0x8b, 0xff, 0x7a};
    char *hex = kconfig_hex(bytes, sizeof bytes);
    CHECK(hex && !strcmp(hex, "001f8bff7a"));
    free(hex);
    hex = kconfig_hex(bytes, 0);
    CHECK(hex && hex[0] == '\0');
    free(hex);

    return TEST_EXIT();
}
