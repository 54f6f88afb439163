"""Writes the `rtla timerlat hist` fixtures in this folder and `expected.json`.

This machine has no timerlat tracer, so the fixtures are made: latencies drawn
from a seeded generator, printed in the layout rtla prints (README.md gives the
source of each layout), and the figures an importer must find computed from
the same latencies with numpy, independently of portkit. Run it from anywhere:
`python3 tests/data/rt/rtla/make_fixtures.py`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy

HERE = Path(__file__).resolve().parent
KIND_LABEL = {"irq": "IRQ", "thread": "Thr", "user": "Usr"}


@dataclass
class Options:
    """The rtla timerlat hist options a fixture stands for."""

    cpus: list[int]
    kinds: tuple[str, ...] = ("irq", "thread")
    nano: bool = False  # -n
    bucket: int = 1  # -b
    entries: int = 256  # -E
    with_zeros: bool = False
    no_summary: bool = False
    no_header: bool = False
    no_index: bool = False
    all_section: bool = False  # the ALL summary of current rtla (timerlat_print_stats_all)
    duration: str = "  0 00:01:00"
    samples: int = 20000
    silent: dict[tuple[int, str], bool] = field(default_factory=dict)  # (cpu, kind): no samples
    footer: list[str] = field(default_factory=list)


def latencies_ns(rng: random.Random, kind: str, n: int) -> list[int]:
    """Wake-up latencies: the IRQ a microsecond or two, the thread later, a few spikes."""
    base = {"irq": 900, "thread": 4200, "user": 5600}[kind]
    values = []
    for _ in range(n):
        value = base + rng.lognormvariate(6.5, 0.7)
        if rng.random() < 0.002:
            value += rng.uniform(5_000, 60_000)
        values.append(int(value))
    return values


def make(name: str, options: Options, random_seed: int) -> dict:
    rng = random.Random(random_seed)
    divisor = 1 if options.nano else 1000
    unit_ns = divisor
    columns = []  # (cpu, kind, values in units)
    for cpu in options.cpus:
        for kind in options.kinds:
            silent = options.silent.get((cpu, kind), False)
            raw = [] if silent else latencies_ns(rng, kind, options.samples)
            columns.append((cpu, kind, [v // divisor for v in raw]))
    lines = []
    if not options.no_header:
        unit = "nanoseconds (ns)" if options.nano else "microseconds (us)"
        lines += ["# RTLA timerlat histogram", f"# Time unit is {unit}"]
        lines.append(f"# Duration: {options.duration}")
        header = "" if options.no_index else "Index"
        header += "".join(f"   {KIND_LABEL[kind]}-{cpu:03d}" for cpu, kind, _ in columns)
        lines.append(header)
    hists = []
    for _, _, values in columns:
        counts = [0] * (options.entries + 1)
        for v in values:
            counts[min(v // options.bucket, options.entries)] += 1
        hists.append(counts)
    for bucket in range(options.entries):
        row = "" if options.no_index else f"{bucket * options.bucket:<6d}"
        row += "".join(f"{counts[bucket]:9d} " for counts in hists)
        if sum(counts[bucket] for counts in hists) or options.with_zeros:
            lines.append(row)
    lines.append(("" if options.no_index else "over: ") + "".join(f"{c[options.entries]:9d} " for c in hists))
    if not options.no_summary:
        lines += summary_rows(options, [values for _, _, values in columns])
        if options.all_section:
            per_kind = [[v for _, k, values in columns if k == kind for v in values] for kind in options.kinds]
            titles = "".join(f"{KIND_LABEL[k]:>{9 if i == 0 else 10}}" for i, k in enumerate(options.kinds))
            lines.append("ALL:  " + titles)
            lines += summary_rows(options, per_kind)
    lines += options.footer
    (HERE / name).write_text("\n".join(lines) + "\n")
    return expected(columns, options, unit_ns)


def summary_rows(options: Options, groups: list[list[int]]) -> list[str]:
    def cell(values: list[int], figure: str) -> str:
        if not values:
            return f"{'-':>9} "
        value = {"min": min(values), "max": max(values), "avg": sum(values) // len(values)}[figure]
        return f"{value:9d} "

    rows = ["count:" + "".join(f"{len(values):9d} " for values in groups)]
    for figure in ("min", "avg", "max"):
        rows.append(f"{figure}:  " + "".join(cell(values, figure) for values in groups))
    return rows


def expected(columns: list[tuple[int, str, list[int]]], options: Options, unit_ns: int) -> dict:
    """What the importer must report for each column, from numpy."""
    result = {}
    for cpu, kind, values in columns:
        label = f"{KIND_LABEL[kind]}-{cpu:03d}"
        if not values:
            result[label] = {"samples": 0}
            continue
        array = numpy.array(values, dtype=numpy.int64) * unit_ns
        limit = options.entries * options.bucket * unit_ns
        over = int((array >= limit).sum())
        exact = options.bucket == 1 and over == 0
        percentiles = {}
        for name in ("50", "90", "99", "99.9", "99.99"):
            # numpy ranks in floats (99.9 / 100 * n can land one rank too far): nudge q below the rank.
            value = int(numpy.percentile(array, float(name) - 1e-9, method="inverted_cdf"))
            width = options.bucket * unit_ns
            edge = int(array.max()) if value >= limit else (value // width + 1) * width
            percentiles[name] = min(edge, int(array.max()))  # no percentile above the largest sample
        result[label] = {
            "samples": len(values),
            "overflow": over,
            "min_ns": int(array.min()),
            "max_ns": int(array.max()),
            "mean_ns": float(array.mean()) if exact else (sum(values) // len(values)) * unit_ns,
            "stddev_ns": float(array.std()) if exact else None,
            "percentiles_ns": percentiles,
        }
    return result


FIXTURES = {
    # rtla-timerlat-hist.rst's example: 5 CPUs, IRQ and thread, us, empty rows left out.
    "timerlat-hist-doc-example.txt": Options(cpus=[0, 1, 2, 3, 4], duration="  0 00:10:00", samples=30000),
    # current rtla: -u adds user-space columns, and the ALL summary; CPU 2's user thread never ran.
    "timerlat-hist-user-threads.txt": Options(
        cpus=[0, 2, 3], kinds=("irq", "thread", "user"), all_section=True, silent={(2, "user"): True}
    ),
    # -n -b 250 -E 40 --with-zeros: ns, 250 ns buckets, every row, the slow wake-ups over.
    "timerlat-hist-nano-bucket.txt": Options(cpus=[0, 1], nano=True, bucket=250, entries=40, with_zeros=True),
    # --no-summary: the rows and 'over:' only.
    "timerlat-hist-no-summary.txt": Options(cpus=[0, 1], no_summary=True, samples=5000),
    # the trace buffer dropped events (osnoise_report_missed_events).
    "timerlat-hist-missed-events.txt": Options(
        cpus=[0, 1], samples=5000, footer=["17 (0.17%) events missed, results might not be accurate"]
    ),
    # -T 30: a thread latency over 30 us stops tracing; the auto-analysis follows (rtla-timerlat-top.rst).
    "timerlat-hist-threshold-stop.txt": Options(
        cpus=[0, 1],
        samples=3000,
        footer=[
            "rtla timerlat hit stop tracing",
            "## CPU 1 hit stop tracing, analyzing it ##",
            "  IRQ handler delay:                                         0.52 us (1.20 %)",
            "  IRQ latency:                                               1.98 us",
            "  Timerlat IRQ duration:                                     3.10 us (7.15 %)",
            "  Blocking thread:                                          36.40 us (84.02 %)",
            "                         kworker/1:2:1234                   36.40 us",
            "------------------------------------------------------------------------",
            "  Thread latency:                                           43.32 us (100%)",
        ],
    ),
    # Layouts that cannot be read: no column names, no bucket index.
    "timerlat-hist-no-header.txt": Options(cpus=[0], no_header=True, samples=1000),
    "timerlat-hist-no-index.txt": Options(cpus=[0], no_index=True, with_zeros=True, entries=20, samples=1000),
}


def main() -> None:
    truth = {name: make(name, options, n) for n, (name, options) in enumerate(FIXTURES.items(), start=1)}
    (HERE / "expected.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
