"""How `portkit crc32c` shows the agent's documents as text: sums and
verdicts like sha256sum (names verbatim, never through rich), and the
benchmark's tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.output import fields
from portkit.core.target import agent_string

if TYPE_CHECKING:
    from rich.console import RenderableType


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
    from rich.table import Table
    from rich.text import Text

    agent = document["agent"]
    results = {(r["implementation"], r["size"]): r for r in document["results"]}
    repeats = sorted({len(r["repeats"]) for r in document["results"]})
    counts = f"{repeats[0]}" if len(repeats) == 1 else f"{repeats[0]}-{repeats[-1]}" if repeats else "0"
    rows: list[tuple[str, RenderableType]] = [
        ("target", f"{document['target']} ({agent['arch']}, {agent['data_model']})"),
        ("selected", Text.assemble((document["implementation"], "bold green"), " (marked *)")),
        ("measured", f"median of {counts} repeats of at least 2 ms each; GB/s = 1e9 bytes/s"),
    ]
    out: list[RenderableType] = [fields(rows)]
    for title, key, fmt in (("GB/s", "gb_per_s", "{:.2f}"), ("ns per call", "ns_per_call", "{:.1f}")):
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column(title, no_wrap=True)
        for size in document["sizes"]:
            table.add_column(size_label(size), justify="right", no_wrap=True)
        for name in document["implementations"]:
            selected = name == document["selected"]
            cells = [fmt.format(results[name, size][key]) for size in document["sizes"]]
            label = f"* {name}" if selected else f"  {name}"
            style = "bold green" if selected else ""
            table.add_row(label, *cells, style=style)
        out += ["", table]
    return out
