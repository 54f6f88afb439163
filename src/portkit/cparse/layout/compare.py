"""Differences between ABIs, each with a one-line reason ("long is 4 -> 8 bytes")."""

from __future__ import annotations

from portkit.cparse.layout.records import Field, Record

WORDS = {"long": "long is {a} -> {b} bytes", "pointer": "pointer {a} -> {b}"}


def differs(versions: list[Record | None]) -> bool:
    present = [r for r in versions if r is not None]
    if len(present) != len(versions):
        return True
    first = present[0]
    return any(_shape(r) != _shape(first) for r in present[1:])


def _shape(rec: Record) -> tuple:
    return (rec.size, rec.align, tuple((f.name, f.offset, f.size, f.bit_offset, f.bit_width) for f in rec.fields))


def reasons(versions: list[Record | None], abi_names: list[str]) -> list[str]:
    """Why the record changes between the first ABI and each other one."""
    out: list[str] = []
    base = versions[0]
    for name, other in zip(abi_names[1:], versions[1:], strict=True):
        if base is None or other is None:
            missing = abi_names[0] if base is None else name
            out.append(f"not defined (or not complete) for {missing}")
            continue
        mine = {f.name: f for f in other.fields}
        theirs = {f.name for f in base.fields}
        tails = (base.in_tail_padding(), other.in_tail_padding())  # once per pair, not per field
        for f in base.fields:
            g = mine.get(f.name)
            if g is None:
                out.append(f"{f.name}: only for {abi_names[0]}")
                continue
            line = _field_reason(f, g) or _tail_padding_reason(tails, f, g, abi_names[0], name)
            if line and len(abi_names) > 2:
                line = f"{abi_names[0]} -> {name}: {line}"
            if line and line not in out:
                out.append(line)
        for g in other.fields:
            if g.name not in theirs:
                line = f"{g.name}: only for {name}"
                if line not in out:
                    out.append(line)
        if not out and (base.size, base.align) != (other.size, other.align):
            out.append(f"size {base.size} -> {other.size}, alignment {base.align} -> {other.align}")
    return out


Tails = tuple[dict[str, str], dict[str, str]]  # Record.in_tail_padding() of the two ABIs compared


def _tail_padding_reason(tails: Tails, f: Field, g: Field, a: str, b: str) -> str | None:
    if f.offset == g.offset:
        return None
    inside_f, inside_g = tails[0].get(f.name), tails[1].get(g.name)
    if inside_g and not inside_f:
        return f"{g.name}: in the tail padding of {inside_g} for {b}, not for {a}"
    if inside_f and not inside_g:
        return f"{f.name}: in the tail padding of {inside_f} for {a}, not for {b}"
    return None


def _field_reason(f: Field, g: Field) -> str | None:
    key = f.reason_key
    if f.size != g.size:
        template = WORDS.get(
            key, key + " {a} -> {b}" if not key.startswith(("struct ", "union ")) else key + " is {a} -> {b} bytes"
        )
        a, b = (f.unit, g.unit) if f.unit != g.unit else (f.size, g.size)
        return f"{f.name}: " + template.format(a=a, b=b)
    if f.align != g.align:
        return f"{f.name}: {key} aligned {f.align} -> {g.align}"
    return None  # unchanged itself: it moved, if at all, because something before it changed
