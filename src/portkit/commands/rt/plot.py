"""Pictures of a study, readable at a glance (PNG for reports, SVG to zoom),
one set per interval:

- histogram: every load's latencies on log-log axes, re-binned into equal
  steps of log(latency) (ten a decade) and drawn as samples per us. A linear
  latency axis squeezes the body of the distribution into one pixel column
  once a single sample sits ten milliseconds out; log bins also give the
  sparse tail heights a reader can see instead of a comb of ones.
- loops: the field report's figure, latency loop by loop (each point the
  worst of a block of loops), one panel per load on a shared log axis, so
  that twelve overlapping lines do not hide each other; thin lines per CPU.
- box: the loads side by side (p25-p75, median, min-p99.9, max).

matplotlib is imported only here."""

from __future__ import annotations

import argparse
import bisect
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from portkit.commands.rt.results import read_results
from portkit.commands.rt.stats import Histogram, percentiles_ns
from portkit.commands.rt.summary import marks, merged_histogram, row
from portkit.core.command import add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import emit, output_directory, warn

FORMATS = ("png", "svg")
BOX_PERCENTILES = ("25", "50", "75", "99.9")
BINS_PER_DECADE = 10
WIDTH_IN = 10.0

PICTURES = (".png", ".svg", ".pdf", ".jpg", ".jpeg")

Cells = list[tuple[str, dict]]


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "plot",
        "histograms, latency per loop and box plots as PNG and SVG",
        None,
        "examples:\n  portkit rt plot study/                 into study/plots/\n  portkit rt plot study/ --to figures/",
        run,
        runs_on="host",
        formats=("text", "json"),
    )
    parser.add_argument("results", type=Path, metavar="DIR_OR_FILE")
    parser.add_argument("--to", type=Path, metavar="DIR", help="where the pictures go (default DIR/plots)")


def run(args: argparse.Namespace) -> int:
    if args.output is not None and args.output.suffix.lower() in PICTURES:
        raise BadInput(
            f"-o {args.output}: -o writes the list of the pictures (text or JSON), not a picture; "
            "the pictures go into --to DIR (default DIR/plots)"
        )
    results = read_results(args.results)
    directory = args.to or (args.results / "plots" if args.results.is_dir() else args.results.parent / "plots")
    fresh = not directory.exists()
    output_directory(directory, "--to")
    title = results.title + (" (EMULATED: timings mean nothing)" if results.emulated else "")
    files = plot(results.cells, directory, title)
    document = {"schema": "portkit.rt-plots/1", "files": [str(f) for f in files]}
    if not files:
        if fresh:
            directory.rmdir()  # made for pictures that did not come
        warn(
            f"nothing to plot: {args.results} holds no histogram and no latency per loop "
            "(a cyclictest -q summary keeps neither)"
        )
    emit(args.format, document, lambda d: d["files"], args.output)
    return Exit.OK


def plot(cells: Sequence[tuple[str, dict]], directory: Path, title: str) -> list[Path]:
    """Writes the plots of the cells (name, document) into directory (which
    exists: core.output.output_directory); returns the files."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    drawings: tuple[tuple[str, Callable[[Any, Cells], Any]], ...] = (
        ("histogram", _histograms),
        ("loops", _loops),
        ("box", _boxes),
    )
    written: list[Path] = []
    for interval, group in _by_interval(cells).items():
        suffix = f"{interval}us" if interval is not None else "imported"
        interval_text = f", interval {interval} us" if interval is not None else ""
        for name, draw in drawings:
            figure = draw(plt, group)
            if figure is None:
                continue
            figure.suptitle(f"{title}{interval_text}")
            for extension in FORMATS:
                path = directory / f"{name}-{suffix}.{extension}"
                figure.savefig(path, dpi=120)
                written.append(path)
            plt.close(figure)
    return written


def _by_interval(cells: Sequence[tuple[str, dict]]) -> dict[int | None, Cells]:
    groups: dict[int | None, Cells] = {}
    for name, document in cells:
        rt = document.get("rt", document)
        interval = document.get("cell", {}).get("interval_us") or (rt.get("config") or {}).get("interval_us")
        groups.setdefault(interval, []).append((label(name, document), rt))
    return groups


def label(name: str, document: dict) -> str:
    """The load, marked as the table marks it: `cpu (interrupted)`."""
    return (document.get("cell", {}).get("load") or name) + marks(row(name, document))


def _histograms(plt: Any, group: Cells) -> Any:
    figure, axes = plt.subplots(figsize=(WIDTH_IN, 5.5), layout="constrained")
    lowest: list[float] = []  # each load's first non-empty bin: the axis starts there, not at 1 us
    for label, rt in group:
        histogram = merged_histogram(rt.get("threads") or [])
        if histogram is None or not histogram.samples:
            continue
        edges, counts = log_bins(histogram)
        # Per microsecond: bins of 1, 2 or 3 buckets side by side would otherwise zig-zag.
        density = [count / (high - low) for count, low, high in zip(counts, edges, edges[1:], strict=False)]
        axes.stairs(density, edges, label=f"{label} (max {_max_us(rt)} us)")
        if histogram.overflow:
            last = next((d for d in reversed(density) if d), 1.0)
            axes.annotate(f"{histogram.overflow} over", (edges[-1], last), fontsize=8)
        lowest.append(next((edge for edge, count in zip(edges, counts, strict=False) if count), edges[0]))
    if not lowest:
        plt.close(figure)
        return None
    axes.set_xscale("log")
    axes.set_xlim(left=min(lowest) / 1.5)
    axes.set_yscale("log")
    axes.set_xlabel(f"latency (us, log; {BINS_PER_DECADE} bins a decade)")
    axes.set_ylabel("samples per us (log)")
    axes.legend(fontsize=8)
    axes.grid(True, which="major", alpha=0.3)
    return figure


def log_bins(histogram: Histogram) -> tuple[list[float], list[int]]:
    """The histogram's fixed-width buckets summed into bins about equally wide
    in log(latency), BINS_PER_DECADE a decade: (edges in us, counts). Edges
    fall on bucket boundaries (1, 2, 3, 4, 6, 7, 8, 10, 13, 16, 20, ... buckets),
    so no bin is narrower than a bucket and none is empty for want of one;
    bucket 0 (below one bucket width, which a log axis cannot show) is
    counted in the first bin."""
    width_us = histogram.bucket_ns / 1000
    top = max((i + 1 for i, count in enumerate(histogram.counts) if count), default=1)
    steps = math.ceil(round(math.log10(top) * BINS_PER_DECADE, 9))
    edges = sorted({math.ceil(round(10 ** (k / BINS_PER_DECADE), 9)) for k in range(steps + 1)})
    if len(edges) == 1:
        edges.append(edges[0] + 1)
    counts = [0] * (len(edges) - 1)
    for index, count in enumerate(histogram.counts[:top]):
        if count:
            counts[max(bisect.bisect_right(edges, index) - 1, 0)] += count
    return [edge * width_us for edge in edges], counts


def _loops(plt: Any, group: Cells) -> Any:
    panels = [(label, rt, _series(rt)) for label, rt in group]
    panels = [(label, rt, lines) for label, rt, lines in panels if lines]
    if not panels:
        return None
    height = min(2.0 + 1.6 * len(panels), 14.0)
    figure, axes_list = plt.subplots(
        len(panels), 1, figsize=(WIDTH_IN, height), sharex=True, sharey=True, layout="constrained", squeeze=False
    )
    for axes, (label, rt, lines) in zip((line[0] for line in axes_list), panels, strict=True):
        for name, xs, worst_us in lines:
            axes.plot(xs, worst_us, linewidth=0.6, label=name)
        axes.set_yscale("log")
        axes.set_ylabel("us")
        axes.set_title(f"{label} (max {_max_us(rt)} us)", fontsize=9, loc="left")
        axes.grid(True, which="major", alpha=0.3)
        if len(lines) > 1:
            axes.legend(fontsize=7, loc="upper right", ncols=min(len(lines), 8))
    axes_list[-1][0].set_xlabel("loop (each point the worst latency of a block of loops)")
    return figure


def _series(rt: dict) -> list[tuple[str, list[int], list[float]]]:
    """(thread name, first loop of each block, worst us of each block) per thread."""
    threads = rt.get("threads") or []
    lines = []
    for index, thread in enumerate(threads):
        series = thread.get("series")
        if not series or not series.get("max_ns"):
            continue
        block = series["block"]
        xs = [i * block for i in range(len(series["max_ns"]))]
        lines.append((_which(thread, index), xs, [v / 1000 for v in series["max_ns"]]))
    return lines


def _which(thread: dict, index: int) -> str:
    return f"cpu{thread['cpu']}" if thread.get("cpu") is not None else f"thread {index}"


def _boxes(plt: Any, group: Cells) -> Any:
    stats = []
    for label, rt in group:
        histogram = merged_histogram(rt.get("threads") or [])
        if histogram is None or not histogram.samples:
            continue
        low = min((t["min_ns"] for t in rt["threads"] if t.get("min_ns") is not None), default=None)
        high = _max_ns(rt)
        p = percentiles_ns(histogram, BOX_PERCENTILES, min_ns=low, max_ns=high) or {}
        if any(p.get(name) is None for name in BOX_PERCENTILES):
            continue
        stats.append(
            {
                "label": label,
                "q1": p["25"] / 1000,
                "med": p["50"] / 1000,
                "q3": p["75"] / 1000,
                "whislo": (low or 0) / 1000,
                "whishi": p["99.9"] / 1000,
                "fliers": [high / 1000] if high is not None else [],
            }
        )
    if not stats:
        return None
    figure, axes = plt.subplots(figsize=(WIDTH_IN, 5.5), layout="constrained")
    axes.bxp(stats, showfliers=True)
    axes.set_yscale("log")
    axes.set_ylabel("latency (us): box p25-p75, line p50, whiskers min-p99.9, dot max")
    axes.grid(True, axis="y", alpha=0.3)
    return figure


def _max_ns(rt: dict) -> int | None:
    return max((t["max_ns"] for t in rt.get("threads") or [] if t.get("max_ns") is not None), default=None)


def _max_us(rt: dict) -> str:
    worst = _max_ns(rt)
    return "-" if worst is None else f"{worst / 1000:.0f}"
