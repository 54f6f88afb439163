"""The study's table in four forms: text for the terminal, Markdown for a
report, CSV for a spreadsheet, JSON (`portkit.rt-table/1`) for a program.
Latencies in µs, as cyclictest and the field report print them. Notes under
the table say what a row alone does not (a --timerlat that could not run)."""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from portkit.commands.rt.results import read_results
from portkit.commands.rt.stacked import Stacked, widest
from portkit.commands.rt.summary import Row, marks, row, us
from portkit.core.command import add_command
from portkit.core.errors import Exit
from portkit.core.output import deliver, emit

if TYPE_CHECKING:
    from rich.text import Text

SCHEMA = "portkit.rt-table/1"
HEADER = ["load", "interval us", "min", "avg", "max", "std.dev", "p99", "p99.9", "samples", "missed", "achieved load"]
NUMBERS = range(1, 10)  # right-aligned columns
# On a terminal too narrow for the whole table: the latencies, then the rest.
LATENCIES = (0, 1, 2, 3, 4, 5, 6, 7)
THE_REST = (0, 1, 8, 9, 10)
INTERVAL = 1
ACHIEVED = 10  # the column that folds


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "table",
        "a study's table (the field report's Table 2, and more)",
        None,
        "examples:\n  portkit rt table study/\n  portkit rt table study/ --format markdown -o table.md",
        show,
        runs_on="host",
        formats=("text", "markdown", "csv", "json"),
    )
    parser.add_argument("results", type=Path, metavar="DIR_OR_FILE")


def show(args: argparse.Namespace) -> int:
    results = read_results(args.results)
    rows = [row(name, cell) for name, cell in results.cells]
    heading, table_notes = results.heading(), notes(results.cells)
    if args.format == "markdown":
        deliver(markdown(rows, heading, table_notes), args.output)
    elif args.format == "csv":
        deliver(csv_text(rows), args.output)
    else:
        emit(
            args.format,
            document(rows, heading, results.emulated, table_notes),
            lambda _: text(rows, heading, table_notes),
            args.output,
        )
    return Exit.OK


def cells(row: Row) -> list[str]:
    return [
        row.load + marks(row),
        str(row.interval_us) if row.interval_us is not None else "-",
        us(row.min_ns),
        us(row.mean_ns),
        us(row.max_ns),
        us(row.stddev_ns),
        us(row.p99_ns),
        us(row.p999_ns),
        str(row.samples),
        "-" if row.missed is None else str(row.missed),
        row.achieved,
    ]


def notes(results: Sequence[tuple[str, dict]]) -> list[str]:
    """One line per reason a --timerlat did not run, naming its cells."""
    why_not: dict[str, list[str]] = {}
    for name, document in results:
        timerlat = document.get("rt", document).get("timerlat")
        if isinstance(timerlat, dict) and not timerlat.get("ran"):
            why_not.setdefault(timerlat.get("why") or "no reason given", []).append(name)
    return [f"--timerlat did not run in {', '.join(names)}: {why}" for why, names in why_not.items()]


def markdown(rows: Sequence[Row], heading: Sequence[str], notes: Sequence[str] = ()) -> str:
    lines = [f"**{heading[0]}** (latencies in µs)", *[f"\n**{line}**" for line in heading[1:]]]
    lines += ["", "| " + " | ".join(HEADER) + " |"]
    lines.append("|" + "|".join("---:" if i in NUMBERS else "---" for i in range(len(HEADER))) + "|")
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells(r)) + " |" for r in rows]
    if notes:
        lines += ["", *[f"Note: {note}" for note in notes]]
    return "\n".join(lines) + "\n"


def csv_text(rows: Sequence[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", *[h.replace(" ", "_") for h in HEADER]])
    for r in rows:
        writer.writerow([r.name, *cells(r)])
    return out.getvalue()


def document(rows: Sequence[Row], heading: Sequence[str], emulated: bool, notes: Sequence[str] = ()) -> dict:
    return {
        "schema": SCHEMA,
        "title": heading[0],
        "emulated": emulated,
        "rows": [asdict(r) for r in rows],
        "notes": list(notes),
    }


def text(rows: Sequence[Row], heading: Sequence[str], notes: Sequence[str] = ()) -> list:
    from portkit.core.output import styled

    title = styled(f"{heading[0]}; latencies in us", "bold")  # a Text: a long path is not wrapped
    lines: list = [title, *[styled(line, "yellow") for line in heading[1:]], ""]
    table = [cells(r) for r in rows]
    lines.append(LatencyTable(HEADER, table, frozenset(NUMBERS), ACHIEVED, blocks=(LATENCIES, THE_REST)))
    if notes:
        lines += ["", *[styled(f"note: {note}", "yellow") for note in notes]]
    return lines


class LatencyTable(Stacked):
    """The table whole where it fits (and always in a file or a pipe). On a
    narrower terminal, two tables one above the other: the latencies, then
    the samples, missed periods and the load, its words folded; an interval
    column that would not fit and has one value says it once, above them."""

    def stacked(self, width: int) -> Text:
        out = super().stacked(width)
        intervals = {row[INTERVAL] for row in self.rows}
        if widest(out) <= width or len(intervals) != 1:
            return out
        said = [] if intervals == {"-"} else [f"every row at an interval of {next(iter(intervals))} us"]
        return Stacked.stacked(self.without(INTERVAL, said), width)
