"""The agent's latency statistics (native/common/pk_stats.c) against numpy on known samples.

build/host/native/tests/stats_tool reads samples (ns, one per line) and prints what
portkit.rt/1 reports for a thread: count, min, max, mean, standard deviation, the
percentiles read from the histogram, the histogram itself, the worst samples and the
per-block maximum series. The percentile is defined as the upper edge of the bucket holding
the order statistic x(r), r = ceil(q*n), capped at the maximum (numpy's "inverted_cdf" gives
x(r)); in the overflow it is the maximum.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import BUILD, _missing

PERCENTILES = {"50": 500000, "90": 900000, "99": 990000, "99.9": 999000, "99.99": 999900}


@pytest.fixture(scope="session")
def stats_tool() -> Path:
    path = BUILD / "host" / "native" / "tests" / "stats_tool"
    if not path.exists():
        _missing(str(path))
    return path


def run_stats(tool: Path, samples: np.ndarray, *options: str) -> dict:
    text = "".join(f"{int(v)}\n" for v in samples)
    proc = subprocess.run([str(tool), *options], input=text, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def order_statistic(sorted_samples: np.ndarray, ppm: int) -> int:
    """x(r) with r = ceil(ppm * n / 1e6), in integers (no rounding at exact ranks)."""
    n = len(sorted_samples)
    rank = max(1, -(-ppm * n // 1_000_000))
    return int(sorted_samples[rank - 1])


def expected_percentile(sorted_samples: np.ndarray, ppm: int, bucket_ns: int, buckets: int) -> int:
    x = order_statistic(sorted_samples, ppm)
    top = int(sorted_samples[-1])
    if x >= bucket_ns * buckets:
        return top
    return min((x // bucket_ns + 1) * bucket_ns, top)


def check_against_numpy(doc: dict, samples: np.ndarray, bucket_ns: int, buckets: int, worst: int) -> None:
    n = len(samples)
    ordered = np.sort(samples, kind="stable")
    assert doc["samples"] == n
    assert doc["min_ns"] == int(samples.min())
    assert doc["max_ns"] == int(samples.max())
    assert doc["mean_ns"] == pytest.approx(float(np.mean(samples.astype(np.float64))), rel=1e-12, abs=1e-9)
    assert doc["stddev_ns"] == pytest.approx(float(np.std(samples.astype(np.float64))), rel=1e-9, abs=1e-6)

    for key, ppm in PERCENTILES.items():
        got = doc["percentiles_ns"][key]
        assert got == expected_percentile(ordered, ppm, bucket_ns, buckets), key
        exact = order_statistic(ordered, ppm)
        assert exact <= got <= int(samples.max())
        if exact < bucket_ns * buckets:
            assert got - exact <= bucket_ns

    histogram = doc["histogram"]
    assert histogram["bucket_ns"] == bucket_ns
    inside = samples[samples < bucket_ns * buckets]
    counts = np.bincount((inside // bucket_ns).astype(np.int64), minlength=1) if len(inside) else np.array([], int)
    counts = np.trim_zeros(counts, "b")
    assert histogram["counts"] == counts.tolist()
    overflow = samples[samples >= bucket_ns * buckets]
    assert histogram["overflow"] == len(overflow)
    assert histogram["overflow_max_ns"] == (int(overflow.max()) if len(overflow) else None)
    assert sum(histogram["counts"]) + histogram["overflow"] == n

    # The worst samples: largest first, equal values in the order taken.
    order = sorted(range(n), key=lambda i: (-int(samples[i]), i))[:worst]
    assert [(w["ns"], w["cycle"]) for w in doc["worst"]] == [(int(samples[i]), i) for i in order]
    assert [w["time_s"] for w in doc["worst"]] == pytest.approx([i * 1e-6 for i in order])

    series = doc["series"]
    block = series["block"]
    maxima = [int(samples[i : i + block].max()) for i in range(0, n, block)]
    assert series["max_ns"] == maxima


@pytest.mark.parametrize(
    ("n", "bucket_ns", "buckets", "random_seed"),
    [
        (12345, 1000, 100000, 1),  # the defaults: 1 us buckets up to 100 ms
        (1000, 1000, 100000, 2),  # q*n exact: p99.9 is x(999), not x(1000)
        (5000, 100, 200, 3),  # 100 ns buckets, 20 us range: the tail overflows
        (1, 1000, 10, 4),
        (20001, 250, 4000, 5),
    ],
)
def test_stats_match_numpy(stats_tool: Path, n: int, bucket_ns: int, buckets: int, random_seed: int) -> None:
    rng = np.random.default_rng(random_seed)
    # Latency-like: a few microseconds, a long tail, a rare spike far out.
    samples = (rng.lognormal(mean=8.5, sigma=0.6, size=n)).astype(np.int64)
    if n > 10:
        samples[rng.integers(0, n, size=3)] = [250_000, 3_000_000, 250_000]
    doc = run_stats(stats_tool, samples, "--bucket-ns", str(bucket_ns), "--buckets", str(buckets))
    check_against_numpy(doc, samples, bucket_ns, buckets, worst=10)


def test_percentile_is_numpy_inverted_cdf_rounded_up_to_the_bucket(stats_tool: Path) -> None:
    rng = np.random.default_rng(7)
    samples = rng.integers(0, 50_000, size=9973)
    doc = run_stats(stats_tool, samples)
    for key in PERCENTILES:
        exact = int(np.percentile(samples, float(key), method="inverted_cdf"))
        assert doc["percentiles_ns"][key] == min((exact // 1000 + 1) * 1000, int(samples.max()))


def test_series_stays_bounded_and_covers_every_sample(stats_tool: Path) -> None:
    samples = np.full(100_003, 7, dtype=np.int64)
    samples[77_777] = 99_999
    doc = run_stats(stats_tool, samples, "--series-cap", "2000")
    series = doc["series"]
    assert 1000 <= len(series["max_ns"]) <= 2000
    assert series["block"] & (series["block"] - 1) == 0  # a power of two
    assert max(series["max_ns"]) == 99_999
    assert series["max_ns"][77_777 // series["block"]] == 99_999
    check_against_numpy(doc, samples, 1000, 100000, worst=10)


def test_narrow_distribution_far_from_zero(stats_tool: Path) -> None:
    """Welford keeps the variance where a sum of squares in double would lose it."""
    base = 10**12
    samples = np.array([base + (1 if i % 2 else 3) for i in range(10000)], dtype=np.int64)
    doc = run_stats(stats_tool, samples)
    assert doc["mean_ns"] == base + 2
    assert doc["stddev_ns"] == pytest.approx(1.0, abs=1e-6)
    assert all(doc["percentiles_ns"][k] == base + 3 for k in PERCENTILES)  # all overflowed: the max


def test_no_samples_are_nulls(stats_tool: Path) -> None:
    doc = run_stats(stats_tool, np.array([], dtype=np.int64))
    assert doc["samples"] == 0
    assert doc["min_ns"] is None and doc["max_ns"] is None
    assert doc["mean_ns"] is None and doc["stddev_ns"] is None
    assert set(doc["percentiles_ns"].values()) == {None}
    assert doc["histogram"]["counts"] == [] and doc["histogram"]["overflow"] == 0
    assert doc["worst"] == [] and doc["series"] == {"block": 1, "max_ns": []}


def test_bad_input_is_one_line_and_exit_2(stats_tool: Path) -> None:
    proc = subprocess.run([str(stats_tool)], input="12\n-5\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "portkit-target stats: line 2: '-5' is not a whole number of ns"
