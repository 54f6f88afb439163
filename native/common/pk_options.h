/* Option parsing for the agent's commands: getopt_long, with every usage
 * error worded the same in every command, as one line on stderr and exit 2
 * (pk_cli.h). A parser returns PK_CONTINUE while the command goes on. */
#ifndef PK_OPTIONS_H
#define PK_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

/* Returned while the command goes on; anything else is the exit code to
 * stop with (--help printed, or a usage error reported). */
#define PK_CONTINUE (-1)

/* Prepares getopt_long for a fresh parse that prints nothing itself: its
 * errors go to pk_option_error. */
void pk_options_start(void);

/* The line for what getopt_long returned as '?' or ':' (opt), given the
 * longopts it parsed with; returns PK_EXIT_USAGE. One of
 *   portkit-target CMD: unknown option '--bogus' (try --help)
 *   portkit-target CMD: unknown option '-x' (try --help)
 *   portkit-target CMD: option '--calls' needs a value (try --help)
 *   portkit-target CMD: option '--json' takes no value (try --help) */
int pk_option_error(const char *cmd, int opt, char *const argv[], const struct option *longopts);

/* PK_CONTINUE when getopt_long left no operands, else PK_EXIT_USAGE after
 *   portkit-target CMD: unexpected argument 'extra' (try --help) */
int pk_no_operands(const char *cmd, int argc, char *const argv[]);

/* The value of a count option as a whole number in [min, max] into *out:
 * PK_CONTINUE, or PK_EXIT_USAGE after
 *   portkit-target CMD: --calls '0': expected a whole number from 1 to 100000000 */
int pk_whole_number_option(const char *cmd, const char *option, const char *value, int64_t min, int64_t max,
                           uint64_t *out);

/* Seconds as every command takes them: a number ("10", "0.5", and "1e-05"
 * as the host's Python may write a small one) with an optional unit s, m, h
 * or d (cyclictest -D's), into *seconds. False on anything else: a sign,
 * hex, inf, nan, another unit, trailing junk, overflow. */
bool pk_parse_seconds(const char *s, double *seconds);

/* The value of a seconds option (pk_parse_seconds) in [0, max_s] with
 * zero_allowed, else in (0, max_s], into *out: PK_CONTINUE, or PK_EXIT_USAGE
 * after one line, the same in every command:
 *   portkit-target CMD: --duration '0': expected seconds such as 10, 0.5, 2m or 1h, above 0 and at most 1d */
int pk_seconds_option(const char *cmd, const char *option, const char *value, bool zero_allowed, double max_s,
                      double *out);

#endif
