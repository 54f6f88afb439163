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
 * it. Comments, string and character literals (which end at the line's end
 * when unterminated, as in text an `#if 0` leaves out) and pp-numbers are
 * read as clang reads them, so that a `#` or a line break inside one is not
 * taken for a directive's start or end. Where the language standard decides
 * how the text lexes (a raw string, a digit separator, a trigraph), there is
 * no answer: the caller parses the text itself.
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

/* Past a block comment whose "/" "*" is at p; "*", splices, "/" close it too. */
static const char *past_block_comment(const char *p, const char *end)
{
    for (p += 2; p < end; p++) {
        if (*p != '*')
            continue;
        const char *q = p + 1;
        for (size_t spliced; (spliced = splice_length(q, end)) != 0;)
            q += spliced;
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

/* Whether the identifier from start to p is a raw string's prefix (R, LR, uR, UR, u8R). */
static bool is_raw_prefix(const char *start, const char *p)
{
    size_t length = (size_t)(p - start);
    static const char *const prefixes[] = {"R", "LR", "uR", "UR", "u8R"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strlen(prefixes[i]) == length && memcmp(prefixes[i], start, length) == 0)
            return true;
    return false;
}

/* Past a pp-number at p (a digit, or "." and a digit): its letters, digits,
 * dots and exponent signs; NULL at a digit separator (1'000), which C before
 * C23 reads as the start of a character literal. */
static const char *past_number(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        char c = *p, before = p[-1];
        bool exponent = before == 'e' || before == 'E' || before == 'p' || before == 'P';
        if ((c == '+' || c == '-') && exponent)
            continue;
        if (c == '\'' && p + 1 < end && is_identifier_byte(p[1]))
            return NULL;
        if (!is_identifier_byte(c) && c != '.')
            break;
    }
    return p;
}

/* Past the token at p, which is no line break, splice or blank: a comment,
 * a string or character literal, a pp-number, or one byte of anything else
 * (of an identifier: *identifier is where that identifier began, which
 * tells a raw string's prefix). NULL where the language standard decides
 * how it lexes: a raw string (C++, and GNU C since clang 19) or a digit separator. */
static const char *past_token(const char *p, const char *end, const char **identifier)
{
    char c = *p;
    if (is_identifier_byte(c) && (*identifier || !is_digit(c))) {
        if (!*identifier)
            *identifier = p;
        return p + 1;
    }
    const char *next;
    if (c == '/' && p + 1 < end && p[1] == '*') {
        next = past_block_comment(p, end);
    } else if (c == '/' && p + 1 < end && p[1] == '/') {
        next = past_line_comment(p, end);
    } else if (c == '"' && *identifier && is_raw_prefix(*identifier, p)) {
        next = NULL; /* where it is one, even a malformed one runs to the next quote */
    } else if (c == '"' || c == '\'') {
        next = past_literal(p, end);
    } else if (is_digit(c) || (c == '.' && p + 1 < end && is_digit(p[1]))) {
        next = past_number(p, end);
    } else {
        next = p + 1;
    }
    *identifier = NULL;
    return next;
}

/* Past the directive whose "#" is at p: to its line break (not past it); NULL as past_token. */
static const char *past_directive(const char *p, const char *end)
{
    const char *identifier = NULL;
    while (p && p < end && !is_newline(*p)) {
        size_t spliced = splice_length(p, end);
        p = spliced ? p + spliced : past_token(p, end, &identifier);
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

static bool keep_directives(Text *t, const char *p)
{
    const char *end = t->end;
    if (has_trigraph(p, end))
        return false;
    bool line_start = true;        /* no token but comments yet since the last unspliced line break */
    const char *identifier = NULL; /* where the identifier being read began */
    const char *splice_end = NULL; /* the input just past the last splice */
    while (p < end) {
        char c = *p;
        size_t length;
        if ((length = newline_length(p, end)) != 0) {
            write_input(t, p, length);
            p += length;
            line_start = true;
            identifier = NULL;
        } else if ((length = splice_length(p, end)) != 0) {
            write_input(t, p, 1); /* the backslash: a `#` right after a splice starts there, to clang */
            write_line_breaks(t, p + 1, p + length);
            p += length;
            splice_end = p;
            t->splice_written = t->written;
        } else if (is_blank(c) || c == '\0') { /* clang takes a NUL byte for a blank */
            p++;
            identifier = NULL;
        } else if (line_start && (c == '#' || (c == '%' && p + 1 < end && p[1] == ':'))) {
            const char *directive_end = past_directive(p, end);
            if (!directive_end)
                return false;
            if (p != splice_end && t->written == t->splice_written)
                *t->written++ = ' '; /* a blank or a comment came between: the `#` starts where it is */
            write_input(t, p, (size_t)(directive_end - p));
            p = directive_end;
        } else {
            if (!(c == '/' && p + 1 < end && p[1] == '*'))
                line_start = false; /* a block comment before it leaves a `#` the line's first token */
            const char *next = past_token(p, end, &identifier);
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
