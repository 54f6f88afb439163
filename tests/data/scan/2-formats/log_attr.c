/* The head unit's logger: a printf-like function marked with the format
 * attribute, so its callers are held to printf's rules. */
#include <stdarg.h>
#include <stdio.h>

static char log_line[128];

static void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void log_msg(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(log_line, sizeof log_line, fmt, ap);
    va_end(ap);
    printf("[log] %s\n", log_line);
}

int main(void)
{
    const char *services[] = {"tuner", "nav", "media"};
    const char *cmd = "seek +12";
    const char *arg = cmd + 5;
    size_t count = sizeof services / sizeof services[0];
    int retries = -1;
    long uptime_s = 3600;

    log_msg("%d services", count); /* want: PK201 */
    log_msg("%zu services", count); /* ok: PK201 */
    log_msg("argument at column %u", arg - cmd); /* want: PK201 */
    log_msg("argument at column %td", arg - cmd); /* ok: PK201 */
    log_msg("retries left: %ld", retries); /* want: PK201 */
    log_msg("retries left: %d", retries); /* ok: PK201 */
    log_msg("up %d s", uptime_s); /* want: PK201 */
    log_msg("up %ld s", uptime_s); /* ok: PK201 */
    return 0;
}
