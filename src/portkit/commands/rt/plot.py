"""Pictures of a study, readable at a glance (PNG for reports, SVG to zoom):
the latency histogram of every load on a log count axis (the OSADL style),
the latency loop by loop (the field report's figure, each point the worst of
a block of loops), and box plots of the loads side by side. One set per
interval. matplotlib is imported only here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from portkit.commands.rt.stats import percentiles_ns
from portkit.commands.rt.summary import merged_histogram

FORMATS = ("png", "svg")
BOX_PERCENTILES = ("25", "50", "75", "99.9")


def plot(cells: Sequence[tuple[str, dict]], directory: Path, title: str) -> list[Path]:
    """Writes the plots of the cells (name, document) into directory; returns the files."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for interval, group in _by_interval(cells).items():
        suffix = f"{interval}us" if interval is not None else "imported"
        for name, draw in (("histogram", _histograms), ("loops", _loops), ("box", _boxes)):
            figure, axes = plt.subplots(figsize=(10, 5.5), layout="constrained")
            if not draw(axes, group):
                plt.close(figure)
                continue
            interval_text = f", interval {interval} us" if interval is not None else ""
            axes.set_title(f"{title}{interval_text}")
            for extension in FORMATS:
                path = directory / f"{name}-{suffix}.{extension}"
                figure.savefig(path, dpi=120)
                written.append(path)
            plt.close(figure)
    return written


def _by_interval(cells: Sequence[tuple[str, dict]]) -> dict[int | None, list[tuple[str, dict]]]:
    groups: dict[int | None, list[tuple[str, dict]]] = {}
    for name, document in cells:
        rt = document.get("rt", document)
        interval = document.get("cell", {}).get("interval_us") or (rt.get("config") or {}).get("interval_us")
        groups.setdefault(interval, []).append((_label(name, document), rt))
    return groups


def _label(name: str, document: dict) -> str:
    return document.get("cell", {}).get("load") or name


def _histograms(axes, group: list[tuple[str, dict]]) -> bool:
    drawn = False
    for label, rt in group:
        histogram = merged_histogram(rt.get("threads") or [])
        if histogram is None or not histogram.samples:
            continue
        width_us = histogram.bucket_ns / 1000
        last = max((i for i, c in enumerate(histogram.counts) if c), default=0)
        edges = [i * width_us for i in range(last + 2)]
        axes.stairs(histogram.counts[: last + 1], edges, label=f"{label} (max {_max_us(rt)} us)")
        if histogram.overflow:
            axes.annotate(f"{histogram.overflow} over", (edges[-1], 1), fontsize=8)
        drawn = True
    axes.set_yscale("log")
    axes.set_xlabel("latency (us)")
    axes.set_ylabel("samples (log)")
    if drawn:
        axes.legend(fontsize=8)
    axes.grid(True, which="major", alpha=0.3)
    return drawn


def _loops(axes, group: list[tuple[str, dict]]) -> bool:
    drawn = False
    for label, rt in group:
        threads = rt.get("threads") or []
        for index, thread in enumerate(threads):
            series = thread.get("series")
            if not series or not series.get("max_ns"):
                continue
            block = series["block"]
            xs = [i * block for i in range(len(series["max_ns"]))]
            worst_us = [v / 1000 for v in series["max_ns"]]
            axes.plot(xs, worst_us, linewidth=0.7, label=label + _which(thread, index, threads))
            drawn = True
    axes.set_xlabel("loop")
    axes.set_ylabel("latency (us), worst of each block of loops")
    if drawn:
        axes.legend(fontsize=8)
    axes.grid(True, alpha=0.3)
    return drawn


def _which(thread: dict, index: int, threads: list[dict]) -> str:
    """' cpu1' or ' thread 2' when a result has more than one thread."""
    if len(threads) < 2:
        return ""
    return f" cpu{thread['cpu']}" if thread.get("cpu") is not None else f" thread {index}"


def _boxes(axes, group: list[tuple[str, dict]]) -> bool:
    stats = []
    for label, rt in group:
        histogram = merged_histogram(rt.get("threads") or [])
        if histogram is None or not histogram.samples:
            continue
        p = percentiles_ns(histogram, BOX_PERCENTILES) or {}
        if any(p.get(name) is None for name in BOX_PERCENTILES):
            continue
        low = min((t["min_ns"] for t in rt["threads"] if t.get("min_ns") is not None), default=0)
        high = _max_ns(rt)
        stats.append(
            {
                "label": label,
                "q1": p["25"] / 1000,
                "med": p["50"] / 1000,
                "q3": p["75"] / 1000,
                "whislo": low / 1000,
                "whishi": p["99.9"] / 1000,
                "fliers": [high / 1000] if high is not None else [],
            }
        )
    if not stats:
        return False
    axes.bxp(stats, showfliers=True)
    axes.set_yscale("log")
    axes.set_ylabel("latency (us): box p25-p75, line p50, whiskers min-p99.9, dot max")
    axes.grid(True, axis="y", alpha=0.3)
    return True


def _max_ns(rt: dict) -> int | None:
    return max((t["max_ns"] for t in rt.get("threads") or [] if t.get("max_ns") is not None), default=None)


def _max_us(rt: dict) -> str:
    worst = _max_ns(rt)
    return "-" if worst is None else f"{worst / 1000:.0f}"
