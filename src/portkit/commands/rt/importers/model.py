"""`portkit.rt/1` documents built from imported results (docs/formats.md):
the shape the agent writes, with null for what a source does not record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from portkit.commands.rt.stats import Histogram, percentiles_ns

SCHEMA = "portkit.rt/1"
CONFIG_KEYS = ("interval_us", "distance_us", "priority", "policy", "cpus", "loops", "duration_s", "bucket_ns")
STOPPED = ("completed", "interrupted", "unknown")


@dataclass
class ImportResult:
    """What one file gave: its documents (one per run it holds) and the
    problems met on the way, one line each, naming the file."""

    documents: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def config(**known: object) -> dict:
    """Every config key, null unless the source says it; extra keys after."""
    return {key: known.pop(key, None) for key in CONFIG_KEYS} | known


def latency_stats(
    *,
    samples: int,
    min_ns: int | None,
    max_ns: int | None,
    mean_ns: int | None,
    stddev_ns: int | None,
    histogram: Histogram | None,
) -> dict:
    """The statistics of one series of latencies, as threads[] and timerlat's
    irq/thread entries hold them; percentiles come from the histogram."""
    if samples == 0:  # cyclictest prints its 1000000 start value as the min of a thread that never woke
        min_ns = max_ns = mean_ns = stddev_ns = None
    return {
        "samples": samples,
        "min_ns": min_ns,
        "max_ns": max_ns,
        "mean_ns": mean_ns,
        "stddev_ns": stddev_ns,
        "percentiles_ns": percentiles_ns(histogram, min_ns=min_ns, max_ns=max_ns) if histogram is not None else None,
        "histogram": histogram.to_json() if histogram is not None else None,
    }


def thread(
    cpu: int | None,
    stats: dict,
    *,
    missed: int | None = None,
    worst: Sequence[dict] = (),
    series: dict | None = None,
) -> dict:
    return (
        {"cpu": cpu, "samples": stats["samples"], "missed": missed}
        | {key: value for key, value in stats.items() if key != "samples"}
        | {"worst": list(worst), "series": series}
    )


def document(
    *,
    source: dict,
    config: dict,
    threads: list[dict],
    stopped: str,
    timerlat: dict | None = None,
) -> dict:
    assert stopped in STOPPED
    return {
        "schema": SCHEMA,
        "source": source,
        "config": config,
        "threads": threads,
        "timerlat": timerlat,
        "stopped": stopped,
    }


def source(tool: str, format: str, file: str, command: str | None = None, **extra: object) -> dict:
    return {"tool": tool, "format": format, "file": file, "command": command, **extra}
