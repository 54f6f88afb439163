"""The study's table in four forms: text for the terminal, Markdown for a
report, CSV for a spreadsheet, JSON (`portkit.rt-table/1`) for a program.
Latencies in µs, as cyclictest and the field report print them."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import asdict

from portkit.commands.rt.summary import Row, us

SCHEMA = "portkit.rt-table/1"
HEADER = ["load", "interval us", "min", "avg", "max", "std.dev", "p99", "p99.9", "samples", "missed", "achieved load"]
NUMBERS = range(1, 10)  # right-aligned columns


def cells(row: Row) -> list[str]:
    return [
        row.load
        + ("" if row.rt else " (no rt)")
        + ("" if row.stopped in ("completed", "unknown") else f" ({row.stopped})"),
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


def markdown(rows: Sequence[Row], heading: Sequence[str]) -> str:
    lines = [f"**{heading[0]}** (latencies in µs)", *[f"\n**{line}**" for line in heading[1:]]]
    lines += ["", "| " + " | ".join(HEADER) + " |"]
    lines.append("|" + "|".join("---:" if i in NUMBERS else "---" for i in range(len(HEADER))) + "|")
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells(r)) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def csv_text(rows: Sequence[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", *[h.replace(" ", "_") for h in HEADER]])
    for r in rows:
        writer.writerow([r.name, *cells(r)])
    return out.getvalue()


def document(rows: Sequence[Row], heading: Sequence[str], emulated: bool) -> dict:
    return {"schema": SCHEMA, "title": heading[0], "emulated": emulated, "rows": [asdict(r) for r in rows]}


def text(rows: Sequence[Row], heading: Sequence[str]) -> list:
    from portkit.core.output import columns, styled

    title = styled(f"{heading[0]}; latencies in us", "bold")  # a Text: a long path is not wrapped
    lines: list = [title, *[styled(line, "yellow") for line in heading[1:]], ""]
    return [*lines, columns(HEADER, [cells(r) for r in rows], right=NUMBERS)]
