"""The latency area's pictures, inlined into the HTML report as SVG: an
overview of the verdict (every cell's p99 and max against its limit, one
figure however many cells), then rt's own histograms and box plots
(commands/rt/plot.py) for the intervals that decide the verdict.

rt's `plot()` draws every kind for every interval as PNG and SVG (about
seven seconds an interval on a 2-core VM); the report draws only the two
kinds it shows, in SVG, through rt's drawing functions, for at most
RT_INTERVALS intervals: `portkit rt plot DIR` draws them all."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from portkit.commands.report.escape import visible
from portkit.commands.report.latency import Latency
from portkit.core.output import warn

RT_INTERVALS = 3
COLOURS = {"ready": "#1a7f37", "not_ready": "#cf222e", "not_measured": "#6e7781"}
WIDTH_IN = 10.0


@dataclass(frozen=True)
class Plot:
    kind: str  # overview, histogram, box
    title: str  # what it shows, for alt text and the caption
    svg: bytes


def draw(sources: list[tuple[str, Latency | None]], cells: list[dict]) -> tuple[list[Plot], str | None]:
    """The pictures, and a note on the intervals left out (None: none were)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    plots: list[Plot] = []
    # Text as text (smaller than glyphs drawn as paths), ids that do not change from run to run.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "portkit-report"}):
        judged = [c for c in cells if c["max_ns"] is not None]
        if judged:
            plots.append(
                Plot("overview", "p99 and max of every cell against its limit", _svg(plt, _overview(plt, judged)))
            )
        rt_plots, left_out = _rt_plots(plt, sources, cells)
        plots += rt_plots
    note = None
    if left_out:
        note = f"{left_out} more intervals are not drawn here: `portkit rt plot DIR` draws every one"
    return plots, note


def _overview(plt: Any, cells: list[dict]) -> Any:
    height = 1.4 + 0.3 * len(cells)
    figure, axes = plt.subplots(figsize=(WIDTH_IN, height), layout="constrained")
    rows = range(len(cells))[::-1]  # the first cell on top
    for row, cell in zip(rows, cells, strict=True):
        colour = COLOURS[cell["verdict"]]
        if cell["p99_ns"] is not None:
            axes.plot([cell["p99_ns"] / 1000, cell["max_ns"] / 1000], [row, row], color=colour, linewidth=1.5)
            axes.plot(cell["p99_ns"] / 1000, row, marker="|", markersize=12, color=colour)
        axes.plot(cell["max_ns"] / 1000, row, marker="o", color=colour)
        if cell["limit_us"] is not None:
            axes.plot(cell["limit_us"], row, marker="D", markersize=6, markerfacecolor="none", color="#1f2328")
    axes.set_yticks(list(rows), [shown(c["key"]) for c in cells], fontsize=8)
    axes.set_ylim(-0.7, len(cells) - 0.3)
    axes.set_xscale("log")
    axes.set_xlabel("latency (us, log): | p99, ● max, ◇ limit; red over the limit, green within, grey not judged")
    axes.grid(True, axis="x", which="major", alpha=0.3)
    return figure


def _rt_plots(plt: Any, sources: list[tuple[str, Latency | None]], cells: list[dict]) -> tuple[list[Plot], int]:
    """rt's histogram and box plot per interval, those with cells not ready first."""
    from portkit.commands.rt.plot import _boxes, _histograms, label

    groups: dict[tuple[str, int | None], list[tuple[str, dict]]] = {}
    for name, latency in sources:
        for cell_name, document in latency.cells if latency is not None else []:
            rt = document.get("rt", document)
            interval = document.get("cell", {}).get("interval_us") or (rt.get("config") or {}).get("interval_us")
            groups.setdefault((name, interval), []).append((shown(label(cell_name, document)), rt))
    failing = {(sources[c["source"]][0], c["interval_us"]) for c in cells if c["verdict"] == "not_ready"}
    order = sorted(groups, key=lambda key: key not in failing)
    plots = []
    for name, interval in order[:RT_INTERVALS]:
        where = f"{name}, interval {interval} us" if interval is not None else name
        for kind, draw_one, what in (
            ("histogram", _histograms, "latency histograms (log-log)"),
            ("box", _boxes, "box plots of the loads"),
        ):
            try:
                figure = draw_one(plt, groups[(name, interval)])
            except (ValueError, RuntimeError, OverflowError) as err:  # matplotlib's, on odd names or data
                warn(f"{name}: its {kind} could not be drawn ({err})")
                continue
            if figure is not None:
                figure.suptitle(shown(where))
                plots.append(Plot(kind, f"{what}: {where}", _svg(plt, figure)))
    return plots, max(0, len(order) - RT_INTERVALS)


def shown(name: str) -> str:
    """A name as matplotlib must get it: characters XML cannot hold spelt out
    (escape.visible), and a $ that would start its math text escaped."""
    return visible(name).replace("$", r"\$")


def _svg(plt: Any, figure: Any) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="svg")
    plt.close(figure)
    return out.getvalue()
