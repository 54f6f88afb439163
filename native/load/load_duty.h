/* The duty cycle of `load cpu`: busy for duty% of every period, asleep for
 * the rest. Periods are counted from a fixed start, so the share does not
 * drift; a worker that overran its period (it was preempted) skips to the
 * next one rather than catching up, which would raise the share. Workers
 * start their periods at evenly spread phases, so that together they load
 * the machine evenly rather than in synchronous bursts. */
#ifndef PK_LOAD_DUTY_H
#define PK_LOAD_DUTY_H

#include <stdint.h>

/* Nanoseconds busy in a period of period_ns at duty_percent (0..100). */
uint64_t pk_duty_busy_ns(uint64_t period_ns, unsigned duty_percent);

/* Offset of worker i of n in the period: i * period_ns / n. */
uint64_t pk_duty_phase_ns(uint64_t period_ns, uint64_t i, uint64_t n);

/* Start of the period after the one that holds now, periods starting at
 * t0 + k * period_ns; t0 itself while now < t0. */
uint64_t pk_duty_next_start(uint64_t t0, uint64_t period_ns, uint64_t now);

#endif
