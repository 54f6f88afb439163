#include "pk_options.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pk_cli.h"

void pk_options_start(void)
{
    optind = 0; /* 0 re-initialises getopt completely (glibc, musl) */
    opterr = 0;
}

/* Whether word ("--name" or "--name=value", the name in full or
 * abbreviated) spells a long option with getopt value val and argument kind
 * has_arg. */
static bool spells_long_option(const char *word, int val, int has_arg, const struct option *longopts)
{
    if (strncmp(word, "--", 2) != 0)
        return false;
    const char *name = word + 2;
    size_t n = strcspn(name, "=");
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == val && o->has_arg == has_arg && n > 0 && strncmp(o->name, name, n) == 0)
            return true;
    return false;
}

int pk_option_error(const char *cmd, int opt, char *const argv[], const struct option *longopts)
{
    /* getopt_long sets optopt to 0 for an unknown long option, to the
     * option's value for a long option given without or with a value it
     * does not take, and to the character for a short option. A long
     * option's error moves optind past its word; a short one's inside a
     * group (-jx) does not, so argv[optind - 1] may be an earlier word: it
     * names the error only when it is the long option optopt stands for. */
    const char *word = argv[optind - 1];
    int name_len = (int)strcspn(word, "=");
    if (opt == ':' && spells_long_option(word, optopt, required_argument, longopts))
        return pk_fail(PK_EXIT_USAGE, cmd, "option '%s' needs a value (try --help)", word);
    if (opt == ':')
        return pk_fail(PK_EXIT_USAGE, cmd, "option '-%c' needs a value (try --help)", optopt);
    if (word[name_len] == '=' && spells_long_option(word, optopt, no_argument, longopts))
        return pk_fail(PK_EXIT_USAGE, cmd, "option '%.*s' takes no value (try --help)", name_len, word);
    if (optopt == 0)
        return pk_fail(PK_EXIT_USAGE, cmd, "unknown option '%s' (try --help)", word);
    return pk_fail(PK_EXIT_USAGE, cmd, "unknown option '-%c' (try --help)", optopt);
}

int pk_no_operands(const char *cmd, int argc, char *const argv[])
{
    if (optind < argc)
        return pk_fail(PK_EXIT_USAGE, cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    return PK_CONTINUE;
}

int pk_whole_number_option(const char *cmd, const char *option, const char *value, int64_t min, int64_t max,
                           uint64_t *out)
{
    int64_t v;
    if (!pk_parse_i64(value, min, max, &v))
        return pk_fail(PK_EXIT_USAGE, cmd, "%s '%s': expected a whole number from %lld to %lld", option, value,
                       (long long)min, (long long)max);
    *out = (uint64_t)v;
    return PK_CONTINUE;
}

bool pk_parse_seconds(const char *s, double *seconds)
{
    /* strtod alone would also take a sign, spaces, hex, inf and nan. */
    if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
        return false;
    if (strpbrk(s, "xX"))
        return false;
    char *end;
    double v = strtod(s, &end); /* ERANGE: an overflow is HUGE_VAL (refused below as not
                                   finite), an underflow a tiny value the range check judges */
    if (end == s)
        return false;
    double unit = 1;
    if (*end) {
        unit = *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
        if (unit == 0 || end[1])
            return false;
    }
    v *= unit;
    if (!isfinite(v))
        return false;
    *seconds = v;
    return true;
}

/* A bound in the largest unit that divides it: 86400 -> "1d", 60 -> "1m". */
static void format_seconds(double s, char *buf, size_t size)
{
    static const struct {
        double seconds;
        const char *unit;
    } units[] = {{86400, "d"}, {3600, "h"}, {60, "m"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (s >= units[i].seconds && fmod(s, units[i].seconds) == 0) {
            snprintf(buf, size, "%g%s", s / units[i].seconds, units[i].unit);
            return;
        }
    snprintf(buf, size, "%g", s);
}

int pk_seconds_option(const char *cmd, const char *option, const char *value, bool zero_allowed, double max_s,
                      double *out)
{
    double v;
    if (!pk_parse_seconds(value, &v) || !(zero_allowed ? v >= 0 : v > 0) || !(v <= max_s)) {
        char max[32];
        format_seconds(max_s, max, sizeof max);
        return pk_fail(PK_EXIT_USAGE, cmd, "%s '%s': expected seconds such as 10, 0.5, 2m or 1h, %s and at most %s",
                       option, value, zero_allowed ? "0 or more" : "above 0", max);
    }
    *out = v;
    return PK_CONTINUE;
}
