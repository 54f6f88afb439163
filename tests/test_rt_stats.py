"""portkit.commands.rt.stats against numpy on known samples: percentiles from
a histogram, the exact mean and standard deviation, the block-max series."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.rt.stats import (
    PERCENTILES,
    BlockMaxSeries,
    Histogram,
    Moments,
    histogram_moments,
    percentiles_ns,
    regroup,
    series_block,
    sqrt_rounded,
)
from rt_samples import NUMPY_Q_NUDGE


def histogram_from_samples(values_ns: list[int], bucket_ns: int, buckets: int) -> Histogram:
    """The histogram the agent keeps, built from the samples themselves:
    `buckets` buckets; larger samples go to the overflow."""
    counts = [0] * buckets
    overflow, overflow_max = 0, None
    for value in values_ns:
        if value // bucket_ns < buckets:
            counts[value // bucket_ns] += 1
        else:
            overflow += 1
            overflow_max = value if overflow_max is None else max(overflow_max, value)
    return Histogram(bucket_ns, counts, overflow, overflow_max)


def block_max_series(values: list[int], points: int) -> dict | None:
    """The block-max series of all the values at once: the largest of each
    block of series_block() values (the last may be shorter); None without values."""
    if not values:
        return None
    block = series_block(len(values), points)
    return {"block": block, "max_ns": [max(values[start : start + block]) for start in range(0, len(values), block)]}


samples_ns = st.lists(st.integers(0, 5_000_000), min_size=1, max_size=3000)
bucket_widths = st.sampled_from([1, 7, 250, 1000, 2500])


def numpy_percentile_edge(values: list[int], name: str, bucket_ns: int, limit_ns: int) -> int:
    """The definition, through numpy: the sample at rank ceil(q*n) (numpy's
    inverted_cdf), then the upper edge of its bucket, or the max beyond the last."""
    value = int(numpy.percentile(numpy.array(values), float(name) - NUMPY_Q_NUDGE, method="inverted_cdf"))
    return max(values) if value >= limit_ns else (value // bucket_ns + 1) * bucket_ns


@settings(max_examples=300, deadline=None)
@given(values=samples_ns, bucket_ns=bucket_widths, buckets=st.integers(1, 3000))
def test_percentiles_are_the_upper_edge_of_numpys_inverted_cdf_bucket(
    values: list[int], bucket_ns: int, buckets: int
) -> None:
    histogram = histogram_from_samples(values, bucket_ns, buckets)
    assert histogram.samples == len(values)
    expected = {name: numpy_percentile_edge(values, name, bucket_ns, buckets * bucket_ns) for name in PERCENTILES}
    assert percentiles_ns(histogram) == expected


@settings(max_examples=300, deadline=None)
@given(values=samples_ns, bucket_ns=bucket_widths, buckets=st.integers(1, 3000))
def test_percentiles_given_the_extremes_stay_within_them(values: list[int], bucket_ns: int, buckets: int) -> None:
    histogram = histogram_from_samples(values, bucket_ns, buckets)
    bounded = percentiles_ns(histogram, min_ns=min(values), max_ns=max(values))
    edges = percentiles_ns(histogram)
    assert bounded is not None and edges is not None
    for name in PERCENTILES:
        assert bounded[name] == min(edges[name], max(values))  # the agent's cap (an edge is never below min)
        assert min(values) <= bounded[name] <= max(values)


def test_a_percentile_in_the_maximums_bucket_is_the_maximum() -> None:
    # A -v log's 138 us maximum sits in the bucket [138, 139) us: its upper edge is no sample.
    histogram = histogram_from_samples([5_000] * 999 + [138_000], 1000, 200)
    assert percentiles_ns(histogram, ["50", "99.99"]) == {"50": 6_000, "99.99": 139_000}
    assert percentiles_ns(histogram, ["50", "99.99"], min_ns=5_000, max_ns=138_000) == {"50": 6_000, "99.99": 138_000}


def test_the_rank_is_computed_exactly_not_in_floats() -> None:
    # 99.9 / 100 is 0.9990000000000001 in floats: times 1000 its ceiling is 1000, not 999.
    values = [1000 * i for i in range(1000)]  # one sample per 1 us bucket
    histogram = histogram_from_samples(values, 1000, 2000)
    assert percentiles_ns(histogram, ["99.9"]) == {"99.9": 999_000}  # the 999th sample (998 us) ends at 999 us
    assert math.ceil(99.9 / 100 * 1000) == 1000  # what the float route would take


def test_numpys_float_rank_is_one_too_far_where_ours_is_exact() -> None:
    values = list(range(0, 2_000_000, 1000))  # 2000 samples, one per 1 us bucket
    ours = percentiles_ns(histogram_from_samples(values, 1000, 3000), ["99.9"])
    assert ours == {"99.9": 1_998_000}  # rank 1998: the sample 1997 us, its bucket ends at 1998 us
    assert numpy.percentile(values, 99.9, method="inverted_cdf") == 1_998_000  # numpy: rank 1999
    assert numpy_percentile_edge(values, "99.9", 1000, 3_000_000) == 1_998_000


def test_percentiles_in_the_overflow_are_its_largest_sample_or_unknown() -> None:
    assert percentiles_ns(Histogram(1000, [5, 4], overflow=1, overflow_max_ns=9_000)) == {
        "50": 1000,
        "90": 2000,
        "99": 9000,
        "99.9": 9000,
        "99.99": 9000,
    }
    assert percentiles_ns(Histogram(1000, [1], overflow=1))["99"] is None
    assert percentiles_ns(Histogram(1000, [0, 0])) is None


@settings(max_examples=300, deadline=None)
@given(values=samples_ns)
def test_mean_and_stddev_are_numpys_rounded_to_the_ns(values: list[int]) -> None:
    moments = Moments()
    for value in values:
        moments.add(value)
    array = numpy.array(values, dtype=numpy.float64)
    slack = 0.5 + 1e-9 * max(values)  # our rounding, plus numpy's float error
    assert abs(moments.mean_ns() - array.mean()) <= slack
    assert abs(moments.stddev_ns() - array.std(ddof=0)) <= slack


@settings(max_examples=200, deadline=None)
@given(units=st.lists(st.integers(0, 3000), min_size=1, max_size=2000), unit_ns=st.sampled_from([1, 1000]))
def test_a_histogram_of_whole_units_gives_the_exact_moments(units: list[int], unit_ns: int) -> None:
    # cyclictest and rtla record whole us: bucket i holds samples of exactly i us.
    values = [u * unit_ns for u in units]
    direct = Moments()
    for value in values:
        direct.add(value)
    from_histogram = histogram_moments(histogram_from_samples(values, unit_ns, 3001))
    assert (from_histogram.n, from_histogram.total, from_histogram.squares) == (direct.n, direct.total, direct.squares)
    assert from_histogram.mean_ns() == direct.mean_ns()


def test_means_round_half_up_and_nothing_is_none() -> None:
    moments = Moments()
    assert moments.mean_ns() is None and moments.stddev_ns() is None
    moments.add(1)
    moments.add(2)
    assert moments.mean_ns() == 2  # 1.5 rounds up
    assert moments.stddev_ns() == 1  # 0.5 rounds up


@given(st.fractions(min_value=0, max_value=10**12))
def test_sqrt_rounded_is_the_nearest_integer(value: Fraction) -> None:
    root = sqrt_rounded(value)
    assert max(root - Fraction(1, 2), 0) ** 2 <= value < (root + Fraction(1, 2)) ** 2


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.integers(0, 10**9), max_size=9000), points=st.sampled_from([1, 3, 10, 2000]))
def test_the_block_max_series_is_numpys_blockwise_max_and_streams_alike(values: list[int], points: int) -> None:
    series = block_max_series(values, points)
    streamed = BlockMaxSeries(points)
    for value in values:
        streamed.add(value)
    assert streamed.to_json() == series
    if not values:
        assert series is None
        return
    block = series["block"]
    assert block == series_block(len(values), points) and block & (block - 1) == 0
    assert len(series["max_ns"]) <= points and (block == 1 or -(-len(values) // (block // 2)) > points)
    padded = numpy.full(-(-len(values) // block) * block, -1)
    padded[: len(values)] = values
    assert series["max_ns"] == padded.reshape(-1, block).max(axis=1).tolist()


def test_regrouping_keeps_every_sample_on_its_side_of_the_overflow() -> None:
    fine = histogram_from_samples([0, 999, 1000, 2500, 5000], 1, 3000)
    coarse = regroup(fine, 1000)
    assert coarse is not None
    assert coarse.counts == [2, 1, 1] and coarse.overflow == 1 and coarse.overflow_max_ns == 5000
    assert percentiles_ns(coarse, ["50"]) == {"50": 2000}
    assert regroup(histogram_from_samples([0], 1, 256), 1000) is None  # 256 ns does not end on a 1 us edge
    assert regroup(Histogram(2000, [1]), 1000) is None


@pytest.mark.parametrize("n, block", [(0, 1), (1, 1), (2000, 1), (2001, 2), (4000, 2), (4001, 4), (10**6, 512)])
def test_series_blocks(n: int, block: int) -> None:
    assert series_block(n) == block
