"""How `portkit layout` shows its document as text: per record, the sizes,
a field table side by side, holes, tail padding and the reasons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.fit import GAP
from portkit.core.output import columns, count, styled

if TYPE_CHECKING:
    from rich.console import RenderableType

    from portkit.core.output import Cell


def _cell(f: dict | None) -> str:
    if f is None:
        return "-"
    if "bit_width" in f:
        return f"bit {f['bit_offset']}:{f['bit_width']}"
    return f"{f['offset']}/{f['size']}"


def _amount(bits: int) -> str:
    if bits % 8:
        return f"{bits} bit" + ("s" if bits > 1 else "")
    return f"{bits // 8} byte" + ("s" if bits > 8 else "")


def _fields_by_name(layout: dict | None) -> dict[str, dict]:
    """A layout's fields by name; of two unnamed bit-fields, the first."""
    index: dict[str, dict] = {}
    for f in layout["fields"] if layout else []:
        index.setdefault(f["name"], f)
    return index


def render(document: dict, width: int | None = None) -> list[RenderableType]:
    """The report; `width` the terminal's (None: a file or a pipe, whole lines).
    Where a record's table is wider than the terminal, every table puts the
    offsets first and the field with its type last, folded under itself, and
    names the ABIs short."""
    from rich.text import Text

    names = [a["name"] for a in document["abis"]]
    tables = [_table(rec, names) for rec in document["records"]]
    narrow = width is not None and any(_table_width(header, rows) > width for header, rows in tables)
    labels = dict(zip(names, short_labels(names) if narrow else names, strict=True))
    out: list[RenderableType] = []
    for rec, (header, rows) in zip(document["records"], tables, strict=True):
        layouts = rec["layouts"]
        mark = (
            styled("changed", "red")
            if rec["changed"]
            else styled("incomplete", "red")
            if rec["incomplete"]
            else styled("same", "green")
        )
        out.append(Text.assemble((rec["name"], "bold"), f"  ({rec['file']}:{rec['line']})  ", mark))
        sizes = [_size(labels[n], n, lay) for n, lay in layouts.items()]
        one_line = "  " + "  ".join(sizes)
        out += [one_line] if width is None or len(one_line) <= width else [f"  {size}" for size in sizes]
        if rows and narrow:  # the offsets first, the field and its type after them, folded under themselves
            narrow_header = [*labels.values(), "field: type (offset/size in bytes)"]
            narrow_rows = [[*cells, f"{name}: {ftype}"] for name, ftype, *cells in rows]
            out.append(columns(narrow_header, narrow_rows, right=range(len(names)), wrap=len(names)))
        elif rows:
            out.append(columns(header, rows, right=range(2, 2 + len(names))))
        for n, lay in layouts.items():
            for h in (lay or {}).get("holes", []):
                where = "tail padding" if h["after"] == "(end)" else f"hole after {h['after'] or 'start'}"
                amount = _amount(h["bits"])
                out.append(f"  {labels[n]}: {where}: {amount} at byte {h['offset_bits'] // 8}")
            for name, base in (lay or {}).get("in_tail_padding", {}).items():
                out.append(f"  {labels[n]}: {name} sits in the tail padding of {base}")
            if lay and lay.get("problem"):
                out.append(Text.assemble(f"  {labels[n]}: ", (lay["problem"], "red")))
        unplaced = next((lay["unplaced_bases"] for lay in layouts.values() if lay and lay["unplaced_bases"]), None)
        if unplaced:
            out.append(
                f"  offsets not known for bases {', '.join(unplaced)}"
                " (a virtual base of an abstract class, or a base that occurs twice)"
            )
        for line in rec["reasons"]:
            out.append(Text.assemble("  ", ("why:", "bold"), f" {line}"))
        out.append("")
    out += _bit_order_note(document)
    out.append(_summary(document, names))
    return out


def _size(label: str, name: str, layout: dict | None) -> str:
    """`arm: 16 bytes, align 4`; a short label names its ABI in full here."""
    shown = label if label == name else f"{label} ({name})"
    if layout is None:
        return f"{shown}: -"
    if layout["size"] is None:
        return f"{shown}: incomplete"
    return f"{shown}: {_amount(layout['size'] * 8)}, align {layout['align']}"


def _table(rec: dict, names: list[str]) -> tuple[list[str], list[list[Cell]]]:
    """A record's fields side by side: name, type, then offset/size per ABI,
    in yellow where they differ; one row per field in the order first seen."""
    indexes = [_fields_by_name(lay) for lay in rec["layouts"].values()]
    rows: list[list[Cell]] = []
    for name in dict.fromkeys(name for index in indexes for name in index):
        cells = [index.get(name) for index in indexes]
        ftype = next(f["type"] for f in cells if f)
        differ = len({_cell(c) for c in cells}) > 1
        values: list[Cell] = [styled(_cell(c), "yellow") if differ else _cell(c) for c in cells]
        rows.append([name or "(unnamed)", ftype, *values])
    return ["field", "type", *(f"{n} off/size" for n in names)], rows


def _table_width(header: list[str], rows: list[list[Cell]]) -> int:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    return sum(widths) + len(GAP) * (len(widths) - 1)


def short_labels(names: list[str]) -> list[str]:
    """ABI names for a narrow column: an ABI with flags without them (`armhf`
    for `armhf:-D_TIME_BITS=64`), numbered by its place (`armhf#2`) where that
    would name two ABIs."""
    bases = [name.split(":", 1)[0] for name in names]
    taken = [name for name in names if ":" not in name]
    return [
        name if ":" not in name else base if base not in taken and bases.count(base) == 1 else f"{base}#{i + 1}"
        for i, (name, base) in enumerate(zip(names, bases, strict=True))
    ]


def _summary(document: dict, names: list[str]) -> str:
    incomplete = sum(1 for r in document["records"] if r["incomplete"])
    changed, total = document["records_changed"], document["records_total"]
    verb = "differs" if changed == 1 else "differ"
    return (
        f"{changed} of {count(total, 'record')} {verb} between {' / '.join(names)}"
        + (f", {incomplete} incomplete" if incomplete else "")
        + (" (--all shows every record)" if total > len(document["records"]) else "")
    )


def _bit_order_note(document: dict) -> list[str]:
    """Where a big-endian ABI's bit-fields are shown: which end of a byte bit
    offsets count from (docs/formats.md, the layout's bit_offset)."""
    big = [a["name"] for a in document["abis"] if a.get("byte_order") == "big"]
    shown = any(
        "bit_width" in f for r in document["records"] for lay in r["layouts"].values() if lay for f in lay["fields"]
    )
    if not big or not shown:
        return []
    little = [a["name"] for a in document["abis"] if a.get("byte_order") != "big"]
    where = "bit N = byte N/8, bit"
    lines = [f"{where} 0x80>>N%8 on {', '.join(big)} (big-endian: bit-fields fill each byte from the top)"]
    if little:
        lines.append(f"{where} 0x01<<N%8 on {', '.join(little)}: the same offset is another bit in memory")
    return lines
