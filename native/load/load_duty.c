#include "load_duty.h"

uint64_t pk_duty_busy_ns(uint64_t period_ns, unsigned duty_percent)
{
    if (duty_percent >= 100)
        return period_ns;
    /* period_ns is at most 1e9 here, so the product fits. */
    return period_ns * duty_percent / 100;
}

uint64_t pk_duty_phase_ns(uint64_t period_ns, uint64_t i, uint64_t n)
{
    return n ? period_ns * (i % n) / n : 0;
}

uint64_t pk_duty_next_start(uint64_t t0, uint64_t period_ns, uint64_t now)
{
    if (period_ns == 0)
        return now;
    if (now < t0)
        return t0;
    return t0 + ((now - t0) / period_ns + 1) * period_ns;
}
