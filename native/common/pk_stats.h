/* Statistics over the samples the benches take. */
#ifndef PK_STATS_H
#define PK_STATS_H

#include <stddef.h>

/* The median of values[0..n): the middle value once sorted, or the mean of
 * the two middle ones for an even n. values is left as it was (the benches
 * report their samples in the order taken). NaN for n == 0 or when there is
 * no memory for the sorted copy. */
double pk_median(const double *values, size_t n);

#endif
