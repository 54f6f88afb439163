"""One row per cell: the field report's Table 2 (Load | Min | Avg | Max |
Std.Dev), with the percentiles, the sample and missed-period counts and what
the load achieved beside it. Every thread of a cell counts: their histograms
are added, their sums pooled (commands/rt/stats.py does the arithmetic)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from portkit.commands.rt.stats import Histogram, percentiles_ns, round_half_up, sqrt_rounded, within


@dataclass(frozen=True)
class Row:
    name: str  # the cell: "idle-1000us", or a file's name for imported data
    load: str
    interval_us: int | None
    min_ns: int | None
    mean_ns: int | None
    max_ns: int | None
    stddev_ns: int | None
    p99_ns: int | None
    p999_ns: int | None
    samples: int
    missed: int | None
    achieved: str  # the load as measured, in words
    rt: bool  # measured at real-time priority (False: --no-rt)
    stopped: str


def row(name: str, cell: dict) -> Row:
    """A cell document (study cell, or an imported / single rt document) as a row."""
    rt = cell.get("rt", cell)
    meta = cell.get("cell", {})
    threads = rt.get("threads") or []
    config = rt.get("config") or {}
    mean, stddev = _pooled(threads)
    low = min((t["min_ns"] for t in threads if t.get("min_ns") is not None), default=None)
    high = max((t["max_ns"] for t in threads if t.get("max_ns") is not None), default=None)
    percentiles = _percentiles(threads, low, high)
    missed = [t.get("missed") for t in threads]
    return Row(
        name=name,
        load=meta.get("load") or name,  # an imported run is named after its file
        interval_us=meta.get("interval_us") or config.get("interval_us"),
        min_ns=low,
        mean_ns=mean,
        max_ns=high,
        stddev_ns=stddev,
        p99_ns=percentiles.get("99") if percentiles else None,
        p999_ns=percentiles.get("99.9") if percentiles else None,
        samples=sum(t.get("samples") or 0 for t in threads),
        missed=None if any(m is None for m in missed) else sum(missed),
        achieved=achieved(cell.get("loads") or []),
        rt=bool(config.get("rt", True)),
        stopped=rt.get("stopped") or "unknown",
    )


def marks(row: Row) -> str:
    """What a reader must know beside a row's name: ' (no rt)', ' (interrupted)', ' (break)'."""
    return ("" if row.rt else " (no rt)") + ("" if row.stopped in ("completed", "unknown") else f" ({row.stopped})")


def _pooled(threads: list[dict]) -> tuple[int | None, int | None]:
    """(mean, stddev) of all threads' samples as one set, from each thread's
    n, mean and stddev (the agent's are exact numbers, an import's rounded).
    A source that gives a thread's mean but not its deviation (cyclictest's
    Avg when its histogram overflowed, its JSON without a histogram) still
    gives the pooled mean."""
    n, total, squares = 0, Fraction(0), Fraction(0)
    deviations = True
    for t in threads:
        count, mean, stddev = t.get("samples"), t.get("mean_ns"), t.get("stddev_ns")
        if not count:
            continue
        if mean is None:
            return None, None
        mean = Fraction(mean)
        n += count
        total += count * mean
        if stddev is None:
            deviations = False
        else:
            squares += count * (Fraction(stddev) ** 2 + mean * mean)
    if not n:
        return None, None
    mean = total / n
    stddev = sqrt_rounded(max(Fraction(0), squares / n - mean * mean)) if deviations else None
    return round_half_up(mean), stddev


def _percentiles(threads: list[dict], low: int | None, high: int | None) -> dict[str, int | None] | None:
    """From the threads' histograms added together, else the one thread's own;
    never beyond the samples' extremes (an older import's may be one bucket above)."""
    if len(threads) == 1 and threads[0].get("percentiles_ns"):
        return {name: within(value, low, high) for name, value in threads[0]["percentiles_ns"].items()}
    merged = merged_histogram(threads)
    return percentiles_ns(merged, min_ns=low, max_ns=high) if merged is not None else None


def merged_histogram(threads: list[dict]) -> Histogram | None:
    """Every thread's samples in one histogram (they share a bucket width), or None."""
    histograms = [t.get("histogram") for t in threads]
    if not histograms or any(h is None for h in histograms) or len({h["bucket_ns"] for h in histograms}) != 1:
        return None
    width = max(len(h["counts"]) for h in histograms)
    counts = [sum(h["counts"][i] if i < len(h["counts"]) else 0 for h in histograms) for i in range(width)]
    overflow_max = [h.get("overflow_max_ns") for h in histograms if h.get("overflow")]
    return Histogram(
        histograms[0]["bucket_ns"],
        counts,
        sum(h.get("overflow") or 0 for h in histograms),
        max(overflow_max) if overflow_max and None not in overflow_max else None,
    )


# What each load reports, in the order it is worth reading, and its unit.
ACHIEVED = (
    ("spawns_per_s", "spawns/s"),
    ("files_per_s", "files/s"),
    ("fsyncs_per_s", "fsyncs/s"),
    ("packets_per_s", "packets/s"),
    ("messages_per_s", "messages/s"),
    ("ops_per_s", "ops/s"),
)


def achieved(loads: list[dict]) -> str:
    """`cpu 198%`, `io 67% 55 MB/s 167k files/s 840 fsyncs/s`: each load as it measured itself."""
    if not loads:
        return "-"
    parts = []
    for load in loads:
        got = load.get("achieved") or {}
        words = [load.get("kind", "?")]
        if got.get("cpu_percent") is not None:
            words.append(f"{got['cpu_percent']:.0f}%")
        if got.get("bytes_per_s"):
            words.append(f"{_si(got['bytes_per_s'], ' ')}B/s")
        words += [f"{_si(got[key])} {unit}" for key, unit in ACHIEVED if got.get(key)]
        parts.append(" ".join(words))
    busy = [load.get("achieved", {}).get("system_busy_percent") for load in loads]
    system = next((b for b in busy if b is not None), None)
    return "; ".join(parts) + (f" (system {system:.0f}% busy)" if system is not None else "")


def _si(value: float, space: str = "") -> str:
    """368030367 -> '368M', 1.2e9 -> '1.2G', 840 -> '840' (with space: '368 M', '840 ')."""
    for prefix, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            scaled = value / size
            return f"{scaled:.1f}{space}{prefix}" if scaled < 10 else f"{scaled:.0f}{space}{prefix}"
    return f"{value:.0f}{space}"


def us(ns: int | None, digits: int = 1) -> str:
    """ns as µs for people: '98.0', or '-' when unknown."""
    return "-" if ns is None else f"{ns / 1000:.{digits}f}"
