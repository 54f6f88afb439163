"""How `portkit crc32c` shows the agent's documents as text: sums and
verdicts like sha256sum (names verbatim, never through rich), and the
benchmark's tables, narrow enough for an 80-column terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.documents import agent_string
from portkit.core.output import columns, fields, styled
from portkit.core.target import emulation_note

if TYPE_CHECKING:
    from rich.console import RenderableType

    from portkit.core.fit import Cell

# A table of throughputs or times holds at most this many sizes (the default's
# five), so that it fits 80 columns; more sizes continue in another table.
SIZES_PER_TABLE = 5


def render_sums(document: dict) -> str:
    """'<crc>  NAME' per file, or with --check 'NAME: OK|FAILED' per entry of the list, in its order."""
    if document["check"] is None:
        return "".join(f"{int(f['crc32c'], 16):08x}  {agent_string(f['path'])}\n" for f in document["files"])
    # An agent older than list_line gets its files in the document's order rather than a traceback.
    verdicts = [(f.get("list_line", 0), f["path"], "OK" if f["ok"] else "FAILED") for f in document["files"]]
    # An unreadable entry is an error with the list line that named it.
    verdicts += [(e["list_line"], e["path"], "FAILED open or read") for e in document["errors"] if "list_line" in e]
    verdicts.sort(key=lambda verdict: verdict[0])
    return "".join(f"{agent_string(path)}: {verdict}\n" for _, path, verdict in verdicts)


def size_label(size: int) -> str:
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def render_bench(document: dict) -> list[RenderableType]:
    from rich.text import Text

    agent = document["agent"]
    results = {(r["implementation"], r["size"]): r for r in document["results"]}
    repeats = sorted({len(r["repeats"]) for r in document["results"]})
    counts = f"{repeats[0]}" if len(repeats) == 1 else f"{repeats[0]}-{repeats[-1]}" if repeats else "0"
    rows: list[tuple[str, RenderableType]] = [
        ("target", f"{document['target']} ({agent['arch']}, {agent['data_model']})")
    ]
    note = emulation_note(document)
    if note:
        rows.append(("", styled(note, "bold yellow")))
    rows += [
        ("selected", Text.assemble((document["implementation"], "bold green"), " (marked *)")),
        ("measured", f"median of {counts} repeats of at least 2 ms each; GB/s = 1e9 bytes/s"),
    ]
    out: list[RenderableType] = [fields(rows)]
    sizes = document["sizes"]
    for title, cell in (
        ("GB/s", lambda r: f"{r['gb_per_s']:.2f}"),
        ("time per call", lambda r: duration(r["ns_per_call"])),
    ):
        for first in range(0, len(sizes), SIZES_PER_TABLE):
            block = sizes[first : first + SIZES_PER_TABLE]
            table: list[list[Cell]] = []
            for name in document["implementations"]:
                selected = name == document["selected"]
                style = "bold green" if selected else ""
                table.append(
                    [
                        styled(f"* {name}" if selected else f"  {name}", style),
                        *(styled(cell(results[name, size]), style) for size in block),
                    ]
                )
            header = [title, *(size_label(size) for size in block)]
            out += ["", columns(header, table, right=range(1, len(header)))]
    return out


def duration(ns: float) -> str:
    """A time per call in the unit that keeps it short: 37.3 ns, 2.18 us, 44.4 ms."""
    ns = float(f"{ns:.3g}")  # 999.6 ns is 1 us, not 1000 ns
    unit, scale = next(((u, s) for u, s in (("s", 1e9), ("ms", 1e6), ("us", 1e3)) if ns >= s), ("ns", 1.0))
    value = ns / scale
    return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"
