"""`portkit layout --types`: the IVI porting field report's data-type table (char ... wchar_t) per
ABI, sizes and alignment inside a struct, as clang sees them with each
target's own headers."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from portkit.commands.layout.render import short_labels
from portkit.core.abis import Abi
from portkit.core.output import styled
from portkit.cparse.libclang import cindex
from portkit.cparse.options import given_flags
from portkit.cparse.parse import parse

if TYPE_CHECKING:
    from rich.console import RenderableType

TYPES = (
    "char",
    "short",
    "int",
    "long",
    "long long",
    "pointer",
    "float",
    "double",
    "long double",
    "size_t",
    "time_t",
    "off_t",
    "wchar_t",
)


def type_table(abis: list[Abi], args: argparse.Namespace) -> list[dict]:
    ci = cindex()
    src = [
        "#include <stddef.h>",
        "#if __has_include(<sys/types.h>)",
        "#include <sys/types.h>",
        "#endif",
        "#if __has_include(<time.h>)",
        "#include <time.h>",
        "#endif",
        "#if __has_include(<wchar.h>)",
        "#include <wchar.h>",
        "#endif",
        "struct pk_types {",
    ]
    for i, t in enumerate(TYPES):
        ctype = "void *" if t == "pointer" else t
        guard = {"time_t": "__has_include(<time.h>)", "off_t": "__has_include(<sys/types.h>)"}.get(t, "1")
        src += [f"#if {guard}", f"  struct {{ char c; {ctype} v; }} f{i};", "#endif"]
    src.append("};")
    text = "\n".join(src) + "\n"
    rows = {t: {"type": t} for t in TYPES}
    for abi in abis:
        flags = given_flags(args)
        tu, _errors = parse("portkit-types.c", abi, flags, args.sysroot, text)
        got: dict[int, tuple[int, int]] = {}
        if tu is not None:
            for c in tu.cursor.walk_preorder():
                if c.kind == ci.CursorKind.FIELD_DECL and c.spelling.startswith("f"):
                    v = c.type.get_offset("v")
                    got[int(c.spelling[1:])] = (_vsize(ci, c), v // 8 if v >= 0 else -1)
        for i, t in enumerate(TYPES):
            size, align = got.get(i, (-1, -1))
            rows[t][abi.name] = {"size": size, "align": align} if size > 0 else None
    return list(rows.values())


def _vsize(ci, field_cursor) -> int:
    for c in field_cursor.type.get_declaration().get_children():
        if c.kind == ci.CursorKind.FIELD_DECL and c.spelling == "v":
            return c.type.get_size()
    return -1


def render_types(document: dict) -> list[RenderableType]:
    from rich.table import Table

    # An ABI with flags is a column too narrow for its name: named short, in full under the table.
    names = [a["name"] for a in document["abis"]]
    labels = short_labels(names)
    table = Table(title="sizes / alignment in a struct, bytes", show_edge=False, box=None, padding=(0, 2))
    table.add_column("type")
    for a, label in zip(document["abis"], labels, strict=True):
        table.add_column(f"{label}\n{a['data_model']}", justify="right")
    for row in document["types"]:
        cells = [
            f"{row[a['name']]['size']}/{row[a['name']]['align']}" if row[a["name"]] else "-" for a in document["abis"]
        ]
        differ = len(set(cells)) > 1
        table.add_row(row["type"], *[styled(c, "yellow") if differ else c for c in cells])
    return [table, *(f"{label}: {name}" for label, name in zip(labels, names, strict=True) if label != name)]
