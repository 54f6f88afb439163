"""Where each C++ base-class subobject sits.

libclang 18 has no call for a base's offset, but clang's constant folder
knows the layout: a probe file that includes the header and declares, per
(derived, base) pair, a variable initialised to the distance between a
derived object and its base subobject is parsed for the same ABI, and each
initialiser is folded with clang_Cursor_Evaluate. A C-style cast reaches
private and protected bases too. Non-virtual bases use a pointer to a made-up
address, which works for abstract classes; virtual bases need a declared
object (a complete one: its virtual bases are placed by its most-derived
type), so an abstract class's virtual bases stay unplaced."""

from __future__ import annotations

from collections.abc import Callable

from portkit.cparse.layout.records import Field, Record, holes
from portkit.cparse.libclang import evaluate_int

ADDRESS = 4096  # any aligned non-null address; only differences are read


def probe_source(header: str, records: list[Record]) -> tuple[str, list[tuple[Record, int]]]:
    """The probe's text and, per variable pk_base_N, which record and base it measures."""
    lines = [f'#include "{header}"']
    wanted: list[tuple[Record, int]] = []
    for rec in records:
        for i, base in enumerate(rec.unplaced):
            n = len(wanted)
            if base.virtual:
                lines.append(f"extern {rec.name} pk_obj_{n};")
                distance = f"(const char *)(const {base.type} *)&pk_obj_{n} - (const char *)&pk_obj_{n}"
            else:
                derived = f"(const {rec.name} *){ADDRESS}"
                distance = f"(const char *)(const {base.type} *){derived} - (const char *){derived}"
            lines.append(f"const long pk_base_{n} = (long)({distance});")
            wanted.append((rec, i))
    return "\n".join(lines) + "\n", wanted


def place(ci, header: str, records: list[Record], parse_probe: Callable[[str], object]) -> None:
    """Adds each base of the records `header` defines (or includes) whose
    offset clang can tell as a field, "(base B)" or "(virtual base B)", and
    recounts the holes. parse_probe parses probe text for the ABI at hand and
    returns the translation unit (or None)."""
    pending = [r for r in records if r.unplaced and r.size is not None]
    if not pending:
        return
    source, wanted = probe_source(header, pending)
    tu = parse_probe(source)
    if tu is None:
        return
    offsets: dict[str, int | None] = {}
    for cursor in tu.cursor.get_children():
        if cursor.kind == ci.CursorKind.VAR_DECL and cursor.spelling.startswith("pk_base_"):
            offsets[cursor.spelling] = evaluate_int(ci, cursor)
    placed: dict[int, set[int]] = {}
    for n, (rec, i) in enumerate(wanted):
        offset = offsets.get(f"pk_base_{n}")
        if offset is None or offset < 0:
            continue
        base = rec.unplaced[i]
        name = f"({'virtual base' if base.virtual else 'base'} {base.type})"
        rec.fields.append(
            Field(name, base.type, offset, base.size, base.align, None, None, base.reason_key, base.size, base.empty)
        )
        placed.setdefault(id(rec), set()).add(i)
    for rec in pending:
        done = placed.get(id(rec), set())
        rec.unplaced = [b for i, b in enumerate(rec.unplaced) if i not in done]
        rec.fields.sort(key=_order)
        rec.holes = holes(rec)


def _order(f: Field) -> int:
    """vptr, then bases, then the class's own fields; virtual bases last, as they sit."""
    if f.name == "(vptr)":
        return 0
    if f.name.startswith("(base "):
        return 1
    if f.name.startswith("(virtual base "):
        return 3
    return 2
