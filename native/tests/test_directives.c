/* scan's cut of a C file to its directives (cparse/directives.c). Whether
 * clang's preprocessor leaves out the same lines of both texts is checked
 * with clang itself (tests/test_scan_directives.py); here, under ASan and
 * UBSan too: texts whose cut is known, then random texts of the bytes the
 * cut reads, for what must hold of any: it stays within its buffer, is no
 * longer than the text, and keeps every line break. */
#include "directives.h"
#include "pk_test.h"

/* Line breaks as clang's line table counts them: \r\n is one. */
static size_t line_breaks(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
            i++;
        if (s[i] == '\n' || s[i] == '\r')
            count++;
    }
    return count;
}

/* The cut of text, as a string in out (which holds strlen(text) + 1 bytes); NULL if there is none. */
static const char *cut(const char *text, char *out)
{
    size_t written = 0;
    if (!pk_directives_only(text, strlen(text), out, &written))
        return NULL;
    out[written] = '\0';
    return out;
}

static void known(void)
{
    char out[256];
    const char *got;
    CHECK_TEXT(cut("", out), "");
    CHECK_TEXT(cut("int a;\n#define X 1\nint b;\n", out), "\n#define X 1\n\n");
    /* a comment inside a directive is the directive's, over as many lines as it takes */
    CHECK_TEXT(cut("#if A /* a\n b */ || B\nf();\n", out), "#if A /* a\n b */ || B\n\n");
    /* after code, a comment over two lines leaves the # no line's first token */
    CHECK_TEXT(cut("int a; /* c\n */ #define GONE\n", out), "\n\n");
    /* a # in a string continued by a splice is the string's */
    CHECK_TEXT(cut("s = \"\\\n#define GONE\";\n", out), "\n\n");
    /* a splice before a directive is kept: the # then starts at the backslash */
    CHECK_TEXT(cut("\\\n#if 0\n", out), "\\\n#if 0\n");
    /* ... and a blank stands for what came between them */
    CHECK_TEXT(cut("\\\n  #if 0\n", out), "\\\n #if 0\n");
    CHECK_TEXT(cut("%:ifdef A\n%:endif\n", out), "%:ifdef A\n%:endif\n");
    /* a \r and a \n that what was left out kept apart stay apart */
    CHECK_TEXT(cut("x\rint y;\n", out), "\r \n");
    /* where the language standard decides, no cut */
    got = cut("s = R\"(x)\";\n", out);
    CHECK(got == NULL);
    got = cut("n = 1'000;\n", out);
    CHECK(got == NULL);
    got = cut("s = \"?\?/\";\n", out); /* the trigraph escaped: this file holds none */
    CHECK(got == NULL);
    got = cut("_Pragma(\"push_macro(\\\"X\\\")\")\n#undef X\n", out);
    CHECK(got == NULL);
}

/* The bytes the cut tells apart, and a few it does not. */
static const char ALPHABET[] = "#\\\n\r\"'/*?%:R u8x0.e+-\t()<>\0";

static void random_texts(unsigned rounds)
{
    uint64_t state = 0x9E3779B97F4A7C15u;
    char text[96], out[96];
    int failures_before = pk_test_failures;
    for (unsigned round = 0; round < rounds; round++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        size_t n = (size_t)(state % sizeof text);
        uint64_t bits = state;
        for (size_t i = 0; i < n; i++) {
            if (i % 8 == 0) {
                bits ^= bits << 13;
                bits ^= bits >> 7;
                bits ^= bits << 17;
            }
            text[i] = ALPHABET[(bits >> (8 * (i % 8))) % (sizeof ALPHABET - 1)];
        }
        /* only the n bytes are the text's: the cut must not read past them */
        char *exact = malloc(n ? n : 1);
        char *written_to = malloc(n ? n : 1);
        memcpy(exact, text, n);
        size_t written = 0;
        if (pk_directives_only(exact, n, written_to, &written)) {
            CHECK(written <= n);
            memcpy(out, written_to, written);
            CHECK(line_breaks(out, written) == line_breaks(exact, n));
        }
        free(exact);
        free(written_to);
        if (pk_test_failures > failures_before) {
            fprintf(stderr, "  at round %u (%zu bytes)\n", round, n);
            return;
        }
    }
}

int main(void)
{
    known();
    random_texts(200000);
    return pk_test_failures ? 1 : 0;
}
