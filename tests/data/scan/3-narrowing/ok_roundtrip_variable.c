/* A string builder from a 32-bit JSON tool: lengths come back from the
 * library as int, are kept in size_t locals (the type the C library wants)
 * and handed back to the library's int parameters. int -> size_t -> int
 * gives the int again in both data models, whatever its value. */
#include <stdio.h>
#include <string.h>

struct region {
    int beg[2], end[2];
};

static int string_length(const char *s)
{
    return (int)strlen(s);
}

static int append(char *to, int used, const char *from, int length)
{
    memcpy(to + used, from, (size_t)length);
    to[used + length] = '\0';
    return used + length;
}

int main(void)
{
    char out[64] = "";
    const char *word = "repeat";
    struct region match = {{2, 0}, {5, 0}};
    size_t word_length = string_length(word);
    unsigned long match_length = match.end[0] - match.beg[0];
    int used = 0;

    for (int n = 0; n < 3; n++)
        used = append(out, used, word, word_length); /* ok: PK301 */
    used = append(out, used, word + match.beg[0], match_length); /* ok: PK301 */
    match_length = match.end[1] - match.beg[1];
    used = append(out, used, word, match_length); /* ok: PK301 */
    printf("%s (%d bytes)\n", out, used);
    return 0;
}
