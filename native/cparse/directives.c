/* A C file's text with its preprocessor directives alone (directives.h),
 * for `portkit scan` through portkit._directives (directives_module.c).
 *
 * Every directive (`#if`, `#define`, `#include`, ...) is kept byte for byte
 * with its continuation lines and the comments inside it; of every other
 * line only its line break (and a backslash that splices it to the next).
 * The preprocessor then takes the same branches at the same lines, and a
 * parse has no declarations or function bodies to read: which regions of
 * sqlite3.c the source ABI's preprocessor leaves out costs a third of a
 * parse of its declarations.
 *
 * Where a directive starts and ends follows clang's lexer: a `#` (or `%:`)
 * that is the first token of a line, where a line starts after a line break
 * that no backslash splices (a break inside a block comment starts none:
 * after `int a;` and a comment over two lines, `#define` is no directive to
 * clang); a directive ends at the first such break outside a comment. A
 * splice is a backslash, blanks, then \n, \r\n, \n\r or \r, as clang takes
 * it, and it may come inside any token (a "/", a splice, a "*" opens a
 * comment). Comments and string and character literals (which end at the
 * line's end when unterminated, as in text an `#if 0` leaves out) are read as
 * clang reads them, so that a `#` or a line break inside one is not taken for
 * a directive's start or end; between them, once a line has a token, only
 * the bytes that could open one are looked at. Where the language standard
 * decides how the text lexes (a raw string, a digit separator, a trigraph),
 * or where code may save and restore a macro (push_macro in a `_Pragma`),
 * there is no answer: the caller parses the text itself.
 */
#include "directives.h"

#include <string.h>

/* What is written: at most the input's length (every blank added stands for one left out). */
typedef struct {
    const char *end;            /* of the input */
    char *out;
    char *written;              /* the next byte to write */
    const char *after_newline;  /* the input just past the last \r or \n written */
    const char *splice_written; /* where writing stood after the last splice */
} Text;

static bool is_identifier_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_newline(char c)
{
    return c == '\n' || c == '\r';
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* A line break at p (\n, \r\n or \r, as clang's lexer ends a line): its length, 0 if none. */
static size_t newline_length(const char *p, const char *end)
{
    if (p >= end || !is_newline(*p))
        return 0;
    return (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
}

/* A splice at p: a backslash, blanks, and a line break, whose other half
 * (\r\n, \n\r) it takes too, as clang's getEscapedNewLineSize; its length, 0 if none. */
static size_t splice_length(const char *p, const char *end)
{
    if (p >= end || *p != '\\')
        return 0;
    const char *q = p + 1;
    while (q < end && is_blank(*q))
        q++;
    if (q >= end || !is_newline(*q))
        return 0;
    q++;
    if (q < end && is_newline(*q) && *q != q[-1])
        q++;
    return (size_t)(q - p);
}

/* p past any splices there. */
static const char *past_splices(const char *p, const char *end)
{
    for (size_t spliced; (spliced = splice_length(p, end)) != 0;)
        p += spliced;
    return p;
}

/* The byte at p, or after the splices there; NUL at the end. */
static char next_after_splices(const char *p, const char *end)
{
    p = past_splices(p, end);
    return p < end ? *p : '\0';
}

/* Whether the "/" at p opens a comment, "/" "*" (or "//" if line), with any splices between. */
static bool opens_comment(const char *p, const char *end, char second)
{
    return *p == '/' && next_after_splices(p + 1, end) == second;
}

/* Past a block comment whose "/" is at p; "*", splices, "/" close it. */
static const char *past_block_comment(const char *p, const char *end)
{
    p = past_splices(p + 1, end) + 1; /* past the opening's "*": "/" "*" "/" closes nothing */
    for (; p < end && (p = memchr(p, '*', (size_t)(end - p))) != NULL; p++) {
        const char *q = past_splices(p + 1, end);
        if (q < end && *q == '/')
            return q + 1;
    }
    return end;
}

/* Past a line comment at p: to its line break (not past it); a splice continues it. */
static const char *past_line_comment(const char *p, const char *end)
{
    while (p < end && !is_newline(*p)) {
        size_t spliced = splice_length(p, end);
        p += spliced ? spliced : 1;
    }
    return p;
}

/* Past a string or character literal opened by the quote at p; an
 * unterminated one ends before its line's break. */
static const char *past_literal(const char *p, const char *end)
{
    char quote = *p++;
    while (p < end && !is_newline(*p)) {
        if (*p == '\\') {
            size_t spliced = splice_length(p, end);
            p += spliced ? spliced : (p + 1 < end && !is_newline(p[1]) ? 2 : 1);
            continue;
        }
        if (*p++ == quote)
            return p;
    }
    return p;
}

/* Whether the quote at p ends a raw string's prefix (R, LR, uR, UR, u8R), a
 * whole identifier: text before p is read back from start at most. */
static bool after_raw_prefix(const char *start, const char *p)
{
    const char *q = p;
    while (q > start && is_identifier_byte(q[-1]) && p - q < 4)
        q--;
    if (q > start && is_identifier_byte(q[-1]))
        return false; /* a longer identifier: FOOR"x" */
    size_t length = (size_t)(p - q);
    static const char *const prefixes[] = {"R", "LR", "uR", "UR", "u8R"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strlen(prefixes[i]) == length && memcmp(prefixes[i], q, length) == 0)
            return true;
    return false;
}

/* The longest pp-number read back from a quote: one longer is no code's. */
#define LONGEST_NUMBER 128

/* Whether the quote at p may be a digit separator (1'000, which C before C23
 * reads as a character literal's start): it follows a pp-number and comes
 * before a digit or letter. Where reading back cannot tell (an exponent's
 * sign on the way, a run longer than LONGEST_NUMBER), it may. */
static bool may_separate_digits(const char *start, const char *p, const char *end)
{
    if (p + 1 >= end || !is_identifier_byte(p[1]))
        return false;
    const char *q = p;
    bool sign = false;
    while (q > start) {
        char c = q[-1];
        bool exponent = q - 1 > start && (q[-2] == 'e' || q[-2] == 'E' || q[-2] == 'p' || q[-2] == 'P');
        if (!is_identifier_byte(c) && c != '.' && !((c == '+' || c == '-') && exponent))
            break;
        sign |= c == '+' || c == '-';
        q--;
        if (p - q > LONGEST_NUMBER)
            return true;
    }
    if (q == p)
        return false;
    return sign || is_digit(*q) || (*q == '.' && is_digit(q[1]));
}

/* Whether a splice joins the quote at p to a word or number before it
 * (R\ then a line break then "): reading back does not cross one. */
static bool spliced_to_a_word(const char *start, const char *p)
{
    const char *q = p;
    if (q > start && is_newline(q[-1]))
        q--;
    if (q > start && is_newline(q[-1]) && q[-1] != q[0])
        q--;
    if (q == p)
        return false;
    while (q > start && is_blank(q[-1]))
        q--;
    return q - start >= 2 && q[-1] == '\\' && (is_identifier_byte(q[-2]) || q[-2] == '.');
}

/* The bytes that can start a comment, a literal, a splice or a line break:
 * between them, a line that has a token already holds nothing to read. */
static const bool STOP[256] = {['\n'] = true, ['\r'] = true, ['\\'] = true, ['"'] = true, ['\''] = true, ['/'] = true};

/* p, or the first byte from p on that STOP holds; end if none. */
static const char *next_stop(const char *p, const char *end)
{
    while (p < end && !STOP[(unsigned char)*p])
        p++;
    return p;
}

/* Past the token at p, which is no line break or splice: a comment, a
 * string or character literal, or one byte of anything else. NULL where the
 * language standard decides how it lexes: a raw string (C++, and GNU C since
 * clang 19; where it is one, even a malformed one runs to the next quote) or
 * a digit separator. start: the text's, for reading back. */
static const char *past_token(const char *start, const char *p, const char *end)
{
    char c = *p;
    if (opens_comment(p, end, '*'))
        return past_block_comment(p, end);
    if (opens_comment(p, end, '/'))
        return past_line_comment(p, end);
    if ((c == '"' || c == '\'') && spliced_to_a_word(start, p))
        return NULL;
    if (c == '"')
        return after_raw_prefix(start, p) ? NULL : past_literal(p, end);
    if (c == '\'')
        return may_separate_digits(start, p, end) ? NULL : past_literal(p, end);
    return p + 1;
}

/* Past the directive whose "#" is at p: to its line break (not past it); NULL as past_token. */
static const char *past_directive(const char *start, const char *p, const char *end)
{
    while ((p = next_stop(p, end)) < end && !is_newline(*p)) {
        size_t spliced = splice_length(p, end);
        p = spliced ? p + spliced : past_token(start, p, end);
        if (!p)
            return NULL;
    }
    return p;
}

/* Whether the text holds a trigraph (??= is #, ??/ a backslash), which
 * only a strict -std=c.. reads: where it decides, the answer is not ours. */
static bool has_trigraph(const char *p, const char *end)
{
    for (; p + 2 < end; p++)
        if (p[0] == '?' && p[1] == '?' && p[2] != '\0' && strchr("=/'()!<>-", p[2]))
            return true;
    return false;
}

/* The input's bytes from..from+n, written. A line break's \n never follows
 * a \r, nor a \r a \n, that it did not follow in the input: with what came
 * between left out, the two would make one break of two (\r\n; \n\r after a
 * splice), so a blank goes between them. */
static void write_input(Text *t, const char *from, size_t n)
{
    if (n == 0)
        return;
    char last = t->written > t->out ? t->written[-1] : '\0';
    if (is_newline(from[0]) && is_newline(last) && from[0] != last && from != t->after_newline)
        *t->written++ = ' ';
    memcpy(t->written, from, n);
    t->written += n;
    if (is_newline(from[n - 1]))
        t->after_newline = from + n;
}

/* The line breaks between from and to, and nothing else. */
static void write_line_breaks(Text *t, const char *from, const char *to)
{
    for (; from < to; from++)
        if (is_newline(*from))
            write_input(t, from, 1);
}

/* Whether the text names push_macro or pop_macro: a `_Pragma` in code (left
 * out with it) could keep a macro's definition across an #undef. */
static bool saves_macros(const char *p, const char *end)
{
    size_t size = (size_t)(end - p);
    return memmem(p, size, "push_macro", 10) != NULL || memmem(p, size, "pop_macro", 9) != NULL;
}

static bool keep_directives(Text *t, const char *start)
{
    const char *p = start, *end = t->end;
    if (has_trigraph(p, end) || saves_macros(p, end))
        return false;
    bool line_start = true;        /* no token but comments yet since the last unspliced line break */
    const char *splice_end = NULL; /* the input just past the last splice */
    while (p < end) {
        if (!line_start && (p = next_stop(p, end)) == end)
            break;
        char c = *p;
        size_t length;
        if ((length = newline_length(p, end)) != 0) {
            write_input(t, p, length);
            p += length;
            line_start = true;
        } else if ((length = splice_length(p, end)) != 0) {
            /* A token's spelling takes in the splices right before it: a `#`
             * starts at the first backslash of a run of them, and a run stays
             * one only where nothing was left out between. */
            if (p != splice_end && t->written == t->splice_written)
                *t->written++ = ' ';
            write_input(t, p, 1);
            write_line_breaks(t, p + 1, p + length);
            p += length;
            splice_end = p;
            t->splice_written = t->written;
        } else if (line_start && (is_blank(c) || c == '\0')) { /* clang takes a NUL byte for a blank */
            p++;
        } else if (line_start && (c == '#' || (c == '%' && next_after_splices(p + 1, end) == ':'))) {
            const char *directive_end = past_directive(start, p, end);
            if (!directive_end)
                return false;
            if (p != splice_end && t->written == t->splice_written)
                *t->written++ = ' '; /* a blank or a comment came between: the `#` starts where it is */
            write_input(t, p, (size_t)(directive_end - p));
            p = directive_end;
        } else {
            if (!opens_comment(p, end, '*'))
                line_start = false; /* a block comment before it leaves a `#` the line's first token */
            const char *next = past_token(start, p, end);
            if (!next)
                return false;
            write_line_breaks(t, p, next);
            p = next;
        }
    }
    return true;
}

bool pk_directives_only(const char *text, size_t size, char *out, size_t *written)
{
    Text t = {.end = text + size, .out = out, .written = out};
    bool kept = keep_directives(&t, text);
    *written = (size_t)(t.written - out);
    return kept;
}
