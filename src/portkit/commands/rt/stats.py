"""Latency statistics shared by everything in `portkit rt` (docs/formats.md,
"portkit.rt/1"): percentiles from a histogram, mean and standard deviation
from sums, the block-max series. Integer arithmetic throughout, so a result
never depends on float rounding and equals the agent's.

- A percentile q is the upper edge of the first bucket whose cumulative count
  reaches ceil(q/100 * n), n counting the overflow too; a rank that falls in
  the overflow is the largest sample (`overflow_max_ns`), null when unknown.
  It is then kept within the samples' own minimum and maximum where they are
  known (as the agent does): the upper edge of the maximum's bucket lies
  above the maximum, and no sample does.
- The mean and the population standard deviation (divided by n) are rounded
  to the nearest ns, halves up.
- The series holds the largest sample of each block of K consecutive loops;
  K is the smallest power of two that keeps it within 2000 points, so a
  writer that does not know n in advance (doubling K and merging pairs as the
  run goes on) makes the same series.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PERCENTILES: tuple[str, ...] = ("50", "90", "99", "99.9", "99.99")
SERIES_POINTS = 2000


@dataclass(frozen=True)
class Histogram:
    """`counts[i]` samples in [i*bucket_ns, (i+1)*bucket_ns); `overflow`
    samples at or beyond len(counts)*bucket_ns, the largest `overflow_max_ns`."""

    bucket_ns: int
    counts: list[int]
    overflow: int = 0
    overflow_max_ns: int | None = None
    extra: dict = field(default_factory=dict)  # what a source adds (cyclictest's overflow cycles)

    @property
    def samples(self) -> int:
        return sum(self.counts) + self.overflow

    def to_json(self) -> dict:
        return {
            "bucket_ns": self.bucket_ns,
            "counts": list(self.counts),
            "overflow": self.overflow,
            "overflow_max_ns": self.overflow_max_ns,
            **self.extra,
        }


def quantile(name: str) -> Fraction:
    """ "99.9" -> 999/1000, exactly: 0.99 * 100 in floats is 99.00000000000001,
    whose ceiling would move the rank by one."""
    return Fraction(name) / 100


def percentiles_ns(
    histogram: Histogram,
    names: Sequence[str] = PERCENTILES,
    *,
    min_ns: int | None = None,
    max_ns: int | None = None,
) -> dict[str, int | None] | None:
    """Each named percentile as defined above, within [min_ns, max_ns] (the
    samples' exact extremes, when known); None for an empty histogram."""
    n = histogram.samples
    if n == 0:
        return None
    ranks = {name: math.ceil(quantile(name) * n) for name in names}
    result: dict[str, int | None] = {}
    pending = sorted(names, key=lambda name: ranks[name])
    cumulative = 0
    for index, count in enumerate(histogram.counts):
        cumulative += count
        while pending and ranks[pending[0]] <= cumulative:
            result[pending.pop(0)] = (index + 1) * histogram.bucket_ns
    for name in pending:  # ranks in the overflow
        result[name] = histogram.overflow_max_ns
    return {name: within(result[name], min_ns, max_ns) for name in names}


def within(value: int | None, low: int | None, high: int | None) -> int | None:
    """value, raised to low and lowered to high where they are known."""
    if value is None:
        return None
    if high is not None:
        value = min(value, high)
    if low is not None:
        value = max(value, low)
    return value


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def sqrt_rounded(value: Fraction) -> int:
    """The square root of a non-negative fraction to the nearest integer, halves up."""
    root = math.isqrt(math.floor(value))  # floor(sqrt(value))
    return root + 1 if value >= (root + Fraction(1, 2)) ** 2 else root


@dataclass
class Moments:
    """Running sums of samples (ns) for the exact mean and standard deviation."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value_ns: int, count: int = 1) -> None:
        self.n += count
        self.total += value_ns * count
        self.squares += value_ns * value_ns * count

    def mean_ns(self) -> int | None:
        return round_half_up(Fraction(self.total, self.n)) if self.n else None

    def stddev_ns(self) -> int | None:
        if not self.n:
            return None
        mean = Fraction(self.total, self.n)
        return sqrt_rounded(Fraction(self.squares, self.n) - mean * mean)


def histogram_moments(histogram: Histogram, value_offset_ns: int = 0) -> Moments:
    """Sums over a histogram's buckets, each sample taken at its bucket's lower
    edge plus `value_offset_ns`. cyclictest and rtla count whole microseconds,
    so bucket i holds samples of exactly i us: offset 0 gives their exact
    mean. The overflow cannot be summed; the caller decides what that means."""
    moments = Moments()
    for index, count in enumerate(histogram.counts):
        if count:
            moments.add(index * histogram.bucket_ns + value_offset_ns, count)
    return moments


def regroup(histogram: Histogram, bucket_ns: int) -> Histogram | None:
    """The same samples in buckets `bucket_ns` wide, when the old width
    divides it and the range ends on a new edge (no sample changes side of
    the overflow); None otherwise."""
    factor, rest = divmod(bucket_ns, histogram.bucket_ns)
    if rest or len(histogram.counts) % factor:
        return None
    counts = [sum(histogram.counts[i : i + factor]) for i in range(0, len(histogram.counts), factor)]
    return Histogram(bucket_ns, counts, histogram.overflow, histogram.overflow_max_ns, dict(histogram.extra))


def series_block(n: int, points: int = SERIES_POINTS) -> int:
    """The smallest power of two K with ceil(n / K) <= points."""
    block = 1
    while -(-n // block) > points:
        block *= 2
    return block


class BlockMaxSeries:
    """The same series built one value at a time, for logs too long to keep:
    blocks start at 1 and double (pairs merged) whenever they pass `points`."""

    def __init__(self, points: int = SERIES_POINTS) -> None:
        self.points = points
        self.block = 1
        self.maxima: list[int] = []
        self._in_last = 0  # values in the last block so far

    def add(self, value: int) -> None:
        if self.maxima and self._in_last < self.block:
            self.maxima[-1] = max(self.maxima[-1], value)
            self._in_last += 1
            return
        if len(self.maxima) == self.points:
            self._double()
            self.add(value)
            return
        self.maxima.append(value)
        self._in_last = 1

    def _double(self) -> None:
        merged = [max(self.maxima[i : i + 2]) for i in range(0, len(self.maxima), 2)]
        filled = len(self.maxima) % 2 == 0  # the old last block was full, so the new one is too
        self.maxima = merged
        self._in_last = self.block * 2 if filled else self._in_last
        self.block *= 2

    def to_json(self) -> dict | None:
        return {"block": self.block, "max_ns": list(self.maxima)} if self.maxima else None
