"""rt plot's log binning: the histogram summed into about equally wide bins
of log(latency) loses no sample and puts each bucket in the bin that holds it."""

from __future__ import annotations

import bisect
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.rt.plot import BINS_PER_DECADE, log_bins
from portkit.commands.rt.stats import Histogram


def test_the_first_decades_fall_on_bucket_boundaries() -> None:
    # 1 us buckets; samples at 3, 4, 5, 11 and 112 us.
    counts = [0] * 113
    for us, n in ((3, 5), (4, 10), (5, 3), (11, 1), (112, 2)):
        counts[us] = n
    edges, binned = log_bins(Histogram(1000, counts))
    assert edges[:12] == [1, 2, 3, 4, 6, 7, 8, 10, 13, 16, 20, 26]
    assert edges[-2:] == [100, 126]
    assert (binned[2], binned[3], binned[7], binned[-1]) == (5, 13, 1, 2)  # 3; 4-5; 10-12; 100-125


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([100, 1000, 2500, 10_000]),
    st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=3000),
)
def test_no_sample_is_lost_and_each_bucket_lands_in_its_bin(bucket_ns: int, counts: list[int]) -> None:
    edges, binned = log_bins(Histogram(bucket_ns, counts))
    width_us = bucket_ns / 1000
    assert sum(binned) == sum(counts)
    assert all(a < b for a, b in itertools.pairwise(edges))
    assert len(binned) == len(edges) - 1
    in_buckets = [round(e / width_us) for e in edges]
    assert all(abs(e / width_us - b) < 1e-6 for e, b in zip(edges, in_buckets, strict=True))
    assert len(edges) - 1 <= BINS_PER_DECADE * 4 + 1  # at most 3000 buckets: under four decades
    for index, count in enumerate(counts):
        if count and index >= 1:
            bin_ = bisect.bisect_right(in_buckets, index) - 1
            assert in_buckets[bin_] <= index < in_buckets[bin_ + 1]
