#include "rt_timerlat_parse.h"

#include <string.h>

typedef struct cursor {
    const char *p, *end;
} cursor;

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static void skip_spaces(cursor *c)
{
    while (c->p < c->end && *c->p == ' ')
        c->p++;
}

/* Digits at the cursor as a number (at most 19 of them). */
static bool take_number(cursor *c, uint64_t *v)
{
    const char *start = c->p;
    *v = 0;
    while (c->p < c->end && is_digit(*c->p) && c->p - start < 19)
        *v = *v * 10 + (uint64_t)(*c->p++ - '0');
    return c->p > start && (c->p == c->end || !is_digit(*c->p));
}

static bool take_word(cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return false;
    c->p += n;
    return c->p == c->end || *c->p == ' ';
}

/* The event text after the timestamp: "#ID context CTX timer_latency N ns". */
static bool parse_event(cursor c, rt_timerlat_sample *s)
{
    static const struct {
        const char *name;
        rt_timerlat_context context;
    } contexts[] = {{"irq", RT_TIMERLAT_IRQ}, {"thread", RT_TIMERLAT_THREAD}, {"user-ret", RT_TIMERLAT_USER_RET}};
    if (c.p == c.end || *c.p++ != '#' || !take_number(&c, &s->activation))
        return false;
    skip_spaces(&c);
    if (!take_word(&c, "context"))
        return false;
    skip_spaces(&c);
    size_t i = 0;
    while (i < sizeof contexts / sizeof contexts[0] && !take_word(&c, contexts[i].name))
        i++;
    if (i == sizeof contexts / sizeof contexts[0])
        return false;
    s->context = contexts[i].context;
    skip_spaces(&c);
    if (!take_word(&c, "timer_latency"))
        return false;
    skip_spaces(&c);
    if (!take_number(&c, &s->latency_ns))
        return false;
    skip_spaces(&c);
    if (!take_word(&c, "ns"))
        return false;
    skip_spaces(&c);
    return c.p == c.end;
}

/* Backwards from the ':' after the timestamp: "[CPU] FLAGS SECONDS.FRACTION".
 * The task name before [CPU] may hold anything, so it is never read. */
static bool parse_columns(const char *line, const char *colon, rt_timerlat_sample *s)
{
    const char *q = colon;
    uint64_t fraction = 0, scale = 1, seconds = 0, unit = 1;
    while (q > line && is_digit(q[-1]) && scale < 1000000000u)
        fraction += (uint64_t)(*--q - '0') * scale, scale *= 10;
    if (q == colon || q == line || *--q != '.')
        return false;
    const char *dot = q;
    while (q > line && is_digit(q[-1]) && unit < 10000000000000ull)
        seconds += (uint64_t)(*--q - '0') * unit, unit *= 10;
    if (q == dot)
        return false;
    /* fraction has (colon - dot - 1) digits: scale it to nanoseconds */
    for (long digits = colon - dot - 1; digits < 9; digits++)
        fraction *= 10;
    s->timestamp_ns = seconds * 1000000000u + fraction;

    while (q > line && q[-1] == ' ')
        q--;
    if (q > line && q[-1] != ']') { /* the flags column (irq-info), when shown */
        while (q > line && q[-1] != ' ')
            q--;
        while (q > line && q[-1] == ' ')
            q--;
    }
    if (q == line || *--q != ']')
        return false;
    const char *close = q;
    while (q > line && is_digit(q[-1]))
        q--;
    if (q == close || q == line || q[-1] != '[' || close - q > 6)
        return false;
    int cpu = 0;
    for (const char *d = q; d < close; d++)
        cpu = cpu * 10 + (*d - '0');
    s->cpu = cpu;
    return true;
}

bool rt_timerlat_parse_line(const char *line, size_t len, rt_timerlat_sample *s)
{
    const char *end = line + len;
    while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    if (end == line || line[0] == '#')
        return false;
    /* The event starts at the last ": #" (the timestamp's colon). */
    const char *colon = NULL;
    for (const char *p = line; p + 2 < end; p++)
        if (p[0] == ':' && p[1] == ' ' && p[2] == '#')
            colon = p;
    if (!colon)
        return false;
    rt_timerlat_sample sample;
    cursor event = {colon + 1, end};
    skip_spaces(&event);
    if (!parse_event(event, &sample) || !parse_columns(line, colon, &sample))
        return false;
    *s = sample;
    return true;
}
