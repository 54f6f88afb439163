"""Results side by side, each against the first: "max 98 -> 68 us (-31%)", for
the comparisons the field reports make (AArch32 vs AArch64, kernel 4.2 vs 4.4,
2 vs 4 cores, idle vs stressed)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from portkit.commands.rt.results import read_results
from portkit.commands.rt.stacked import Stacked
from portkit.commands.rt.summary import Row, row, us
from portkit.core.command import add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import emit

if TYPE_CHECKING:
    from rich.text import Text

SCHEMA = "portkit.rt-compare/1"
METRICS = (("min", "min_ns"), ("avg", "mean_ns"), ("max", "max_ns"), ("p99", "p99_ns"), ("p99.9", "p999_ns"))


@dataclass(frozen=True)
class Side:
    title: str
    rows: dict[str, Row]  # by cell name


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "compare",
        "studies side by side, each against the first",
        None,
        "examples:\n  portkit rt compare aarch32/ aarch64/\n  portkit rt compare idle.json stressed.json",
        run,
        runs_on="host",
    )
    parser.add_argument(
        "results", nargs="+", type=Path, metavar="DIR_OR_FILE", help="two or more studies, result directories or files"
    )


def run(args: argparse.Namespace) -> int:
    sides = []
    for path in args.results:
        results = read_results(path)
        label = results.label + (" (emulated)" if results.emulated else "")
        sides.append(Side(label, {name: row(name, cell) for name, cell in results.cells}))
    if len(sides) == 1:
        raise BadInput(
            f"rt compare: {args.results[0]}: one result alone; give two or more to compare "
            f"(`portkit rt table {args.results[0]}` shows one)"
        )
    emit(args.format, document(sides), text, args.output)
    return Exit.OK


def change(before: int | None, after: int | None) -> str:
    if before is None or after is None:
        return ""
    if before == 0:
        return "" if after == 0 else "(new)"
    return f"{100 * (after - before) / before:+.0f}%"


def document(sides: Sequence[Side]) -> dict:
    sides = _single_runs_matched(sides)
    names = list(dict.fromkeys(name for side in sides for name in side.rows))
    first = sides[0]
    cells = []
    for name in names:
        entries = []
        for side in sides:
            r = side.rows.get(name)
            base = first.rows.get(name)
            entries.append(
                {
                    "study": side.title,
                    **({"name": r.name, **{key: getattr(r, field) for key, field in METRICS}} if r else {}),
                    "change": {key: change(getattr(base, field), getattr(r, field)) for key, field in METRICS}
                    if r and base and side is not first
                    else {},
                }
            )
        cells.append({"cell": name, "results": entries})
    return {"schema": SCHEMA, "studies": [s.title for s in sides], "cells": cells}


def _single_runs_matched(sides: Sequence[Side]) -> Sequence[Side]:
    """Single runs (one result each, named after their files) are compared
    with each other, each row keeping its own name; studies cell by cell,
    by the cells' names."""
    if len(sides) < 2 or any(len(side.rows) != 1 for side in sides):
        return sides
    name = next(iter(sides[0].rows))
    return [Side(side.title, {name: next(iter(side.rows.values()))}) for side in sides]


def text(doc: dict) -> list:
    header = ["cell", "study", *[f"{key} us" for key, _ in METRICS], *[f"{key} vs first" for key in ("max", "p99")]]
    lines = []
    for cell in doc["cells"]:
        for entry in cell["results"]:
            lines.append(
                [
                    entry.get("name", cell["cell"]),
                    entry["study"],
                    *[us(entry.get(key)) for key, _ in METRICS],
                    entry["change"].get("max", ""),
                    entry["change"].get("p99", ""),
                ]
            )
    right = frozenset(range(2, 2 + len(METRICS) + 2))
    return [ComparisonTable(header, lines, right, blocks=(COMPARED, THE_REST))]


COMPARED = (0, 1, 4, 5, 7, 8)  # on a narrow terminal: max and p99 beside their changes, then the rest
THE_REST = (0, 1, 2, 3, 6)
STUDY = 1


class ComparisonTable(Stacked):
    """On a terminal too narrow for one line a row, the studies are numbered
    above the table (their paths are long) and the figures come in two
    blocks: max and p99 with their changes against the first, then min, avg
    and p99.9."""

    def stacked(self, width: int) -> Text:
        studies = list(dict.fromkeys(row[STUDY] for row in self.rows))
        number = {study: str(n) for n, study in enumerate(studies, start=1)}
        header = [h.removesuffix(" us").replace("vs first", "vs 1") for h in self.header]
        header[STUDY] = "study"
        rows = [[*row[:STUDY], number[row[STUDY]], *row[STUDY + 1 :]] for row in self.rows]
        legend = tuple(f"{number[study]}  {study}" for study in studies)
        latencies = ("latencies in us", "")
        return Stacked.stacked(replace(self, header=header, rows=rows, above=(*latencies, *legend)), width)
