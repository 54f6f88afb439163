"""How `portkit layout` shows its document as text: per record, the sizes,
a field table side by side, holes, tail padding and the reasons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from portkit.core.output import columns, styled

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


def render(document: dict) -> list[RenderableType]:
    from rich.text import Text

    abis = [a["name"] for a in document["abis"]]
    out: list[RenderableType] = []
    for rec in document["records"]:
        layouts = rec["layouts"]
        sizes = "  ".join(
            f"{n}: {_amount(lay['size'] * 8)}, align {lay['align']}"
            if lay and lay["size"] is not None
            else f"{n}: incomplete"
            if lay
            else f"{n}: -"
            for n, lay in layouts.items()
        )
        mark = (
            styled("changed", "red")
            if rec["changed"]
            else styled("incomplete", "red")
            if rec["incomplete"]
            else styled("same", "green")
        )
        out.append(Text.assemble((rec["name"], "bold"), f"  ({rec['file']}:{rec['line']})  ", mark, f"\n  {sizes}"))
        indexes = [_fields_by_name(lay) for lay in layouts.values()]
        table: list[list[Cell]] = []
        for name in dict.fromkeys(name for index in indexes for name in index):  # rows in the order first seen
            cells = [index.get(name) for index in indexes]
            ftype = next(f["type"] for f in cells if f)
            differ = len({_cell(c) for c in cells}) > 1
            values: list[Cell] = [styled(_cell(c), "yellow") if differ else _cell(c) for c in cells]
            table.append([name or "(unnamed)", ftype, *values])
        if table:
            header = ["field", "type", *(f"{n} off/size" for n in abis)]
            out.append(columns(header, table, right=range(2, 2 + len(abis))))
        for n, lay in layouts.items():
            for h in (lay or {}).get("holes", []):
                where = "tail padding" if h["after"] == "(end)" else f"hole after {h['after'] or 'start'}"
                amount = _amount(h["bits"])
                out.append(f"  {n}: {where}: {amount} at byte {h['offset_bits'] // 8}")
            for name, base in (lay or {}).get("in_tail_padding", {}).items():
                out.append(f"  {n}: {name} sits in the tail padding of {base}")
            if lay and lay.get("problem"):
                out.append(Text.assemble(f"  {n}: ", (lay["problem"], "red")))
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
    incomplete = sum(1 for r in document["records"] if r["incomplete"])
    out.append(
        f"{document['records_changed']} of {document['records_total']} records differ between "
        f"{' / '.join(abis)}"
        + (f", {incomplete} incomplete" if incomplete else "")
        + (" (--all shows every record)" if document["records_total"] > len(document["records"]) else "")
    )
    return out


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
