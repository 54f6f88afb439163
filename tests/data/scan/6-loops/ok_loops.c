/* Loop indices as wide as their bounds, bounds that are int on every target,
 * a bound that is 64 bits on every target, a constant bound, and an int that
 * only grows in the body while a pointer steps (Lua's option parser). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const int weights[] = {3, 1, 4, 1, 5, 9, 2, 6};

int main(void)
{
    const char *name = "rear camera";
    size_t len = strlen(name), i;
    int n = 8, j, total = 0, spaces = 0, lower = 0;
    int64_t frames = 5;
    uint32_t k, words = 4, mix = 0;
    long m, count = 3, acc = 0;
    const char *p;
    int width = 1;

    for (i = 0; i < len; i++) /* ok: PK601 */
        spaces += name[i] == ' ';
    for (j = 0; j < (int)len; j++) /* ok: PK601 */
        lower += name[j] >= 'a' && name[j] <= 'z';
    for (j = 0; j < n; j++) /* ok: PK601 */
        total += weights[j];
    for (j = 0; j < ARRAY_SIZE(weights); j++) /* ok: PK601 */
        total += weights[j];
    for (j = 0; j < frames; j++) /* ok: PK601 */
        total++;
    for (k = 0; k < words; k++) /* ok: PK601 */
        mix = mix * 31u + k;
    for (m = 0; m < count; m++) /* ok: PK601 */
        acc += m;
    for (p = name; p < name + len && width <= count; p += width) /* ok: PK601 */
        if (*p == ' ')
            width++;
    printf("%d spaces, %d lower case, total %d, mix %u, acc %ld, width %d\n", spaces, lower, total, (unsigned int)mix, acc,
           width);
    return 0;
}
