"""PK502: a union whose members no longer overlay each other on the target."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK502",
    name="union-overlay",
    severity=Severity.WARNING,
    family="Layout-sensitive I/O",
    summary="A union whose members all overlay the same bytes at home, of which a long or pointer grows on the target.",
    why=(
        "Such unions reinterpret bytes: a double as two longs, a pointer as an int, a header as a word. "
        "On ILP32 the members covered the same bytes; on LP64 a long or pointer member doubles while "
        "the others stay, so the union grows and a write through one member no longer fills the other "
        "(the field report's long_union_t is 8 bytes on AArch32 and 16 on AArch64). A union declared "
        "inside a struct beside other members is that struct's variant part, selected by them (a type "
        "code, flags), as a database's expression node keeps a token or an integer: it is not reported."
    ),
    wrong="typedef union {\n    double d;\n    long   l[2];\n} long_union_t;",
    right="typedef union {\n    double  d;\n    int32_t l[2];\n} long_union_t;",
    fix="Overlay fixed-width types (int32_t, uint64_t, uintptr_t where an address is meant), so every "
    "member keeps its size on every target.",
)


def on_union(unit: Unit, union, _parent) -> None:
    if not union.is_definition():
        return
    parent = union.lexical_parent
    if parent is not None and parent.kind in (unit.ci.CursorKind.STRUCT_DECL, unit.ci.CursorKind.CLASS_DECL):
        return  # the variant part of a struct: its other members say which member holds the value
    fields = [f for f in union.get_children() if f.kind == unit.ci.CursorKind.FIELD_DECL]
    members = [(f, unit.width_of(f)) for f in fields]
    if len({w.source for _, w in members}) != 1 or any(not w.known for _, w in members):
        return  # members of different sizes at home: a tagged variant, not bytes seen two ways
    for i, (field, width) in enumerate(members):
        if not (width.known and width.grows):
            continue
        for other, other_width in members[:i] + members[i + 1 :]:
            if other_width.known and other_width.source == width.source and other_width.target != width.target:
                pair = unit.pair
                message = (
                    f"'{field.spelling}' {width.describe(pair)} overlays '{other.spelling}' "
                    f"{other_width.describe(pair)}: the same bytes on {pair.source.label}, not on {pair.target.label}"
                )
                unit.report(RULE, field, message)  # the member to change, not the union's first line
                return


CHECK = Check(RULE, nodes={"UNION_DECL": on_union})
