/* Loops from a string and buffer library: int or unsigned indices against
 * lengths that are size_t, a pointer difference or long. */
#include <stddef.h>
#include <string.h>

void upcase(char *s)
{
    int i;

    for (i = 0; i < strlen(s); i++) /* want: PK601 */
        if (s[i] >= 'a' && s[i] <= 'z')
            s[i] -= 32; /* ok: PK402 */
}

unsigned int checksum(const unsigned char *p, size_t len)
{
    unsigned int i, sum = 0;

    for (i = 0; i < len; i++) /* want: PK601 */
        sum += p[i];
    return sum;
}

int count_spaces(const char *begin, const char *end)
{
    int i, n = 0;

    for (i = 0; i < end - begin; i++) /* want: PK601 */
        n += begin[i] == ' ';
    return n;
}

long sum_samples(const short *v, long count)
{
    long total = 0;
    int i = 0;

    while (i < count) /* want: PK601 */
        total += v[i++];
    return total;
}

unsigned int checksum_fixed(const unsigned char *p, size_t len)
{
    unsigned int sum = 0;
    size_t i;

    for (i = 0; i < len; i++) /* ok: PK601 */
        sum += p[i];
    return sum;
}

long sum_samples_fixed(const short *v, long count)
{
    long total = 0;
    long i;

    for (i = 0; i < count; i++) /* ok: PK601 */
        total += v[i];
    return total;
}
