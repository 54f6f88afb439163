/* A command-line option parsed into a bit mask by a helper that stores an
 * unsigned long, as util-linux's string_to_bitmask() does; the caller keeps
 * the mask in a uint32_t and hands over its address cast to unsigned long *
 * (wdctl --flags before util-linux 2.39). On ILP32 both are 4 bytes; on LP64
 * the store is 8 bytes and overwrites the field after the mask. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct options {
    uint32_t wanted;
    uint32_t timeout; /* lies right after the mask */
};

static int string_to_bitmask(const char *list, unsigned long *mask)
{
    *mask = 0;
    for (; *list; list++) {
        if (*list < '0' || *list > '9')
            return -1;
        *mask |= 1UL << (*list - '0');
    }
    return 0;
}

static int count_bits(const unsigned long *mask)
{
    return __builtin_popcountl(*mask);
}

int main(void)
{
    struct options opt = {0, 60};
    unsigned long direct = 0;

    if (string_to_bitmask("135", (unsigned long *)&opt.wanted) != 0) /* want: PK103 */
        return 1;
    printf("mask 0x%x, timeout %u\n", (unsigned)opt.wanted, (unsigned)opt.timeout);

    opt.timeout = 0x0101;
    printf("bits set: %d\n", count_bits((const unsigned long *)&opt.wanted)); /* want: PK103 */

    memset((unsigned long *)&opt.wanted, 0, sizeof opt.wanted); /* ok: PK103 */
    printf("cleared 0x%x, timeout %u\n", (unsigned)opt.wanted, (unsigned)opt.timeout);

    string_to_bitmask("24", &direct); /* ok: PK103 */
    printf("direct 0x%lx\n", direct);
    return 0;
}
