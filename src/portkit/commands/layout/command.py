"""`portkit layout`: which structs and unions change between two data models
(AArch32 ILP32 -> AArch64 LP64 by default) and exactly how, to the byte
(seed: "sizeof(struct bar) = 16 on AArch32, 32 on AArch64")."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from portkit.commands.layout import bases
from portkit.commands.layout.compare import differs, reasons
from portkit.commands.layout.records import Record, collect
from portkit.commands.layout.types import render_types, type_table
from portkit.core.abis import DEFAULT_ABIS, Abi, known_names, parse_abi
from portkit.core.command import add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import columns, emit, styled
from portkit.cparse import libclang as clang
from portkit.cparse.compdb import load_compile_commands

if TYPE_CHECKING:
    from rich.console import RenderableType

    from portkit.core.output import Cell

SCHEMA = "portkit.layout/1"
MAX_BYTES = 64 * 1024 * 1024  # a header beyond this is not a header


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers,
        "layout",
        "struct and union layouts across data models (ILP32, LP64, LLP64), exact to the byte",
        __doc__,
        (
            "examples:\n"
            "  portkit layout examples/legacy32/include/wire.h\n"
            "  portkit layout src/*.h --abi armhf --abi 'armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64'\n"
            "  portkit layout --types --abi armhf --abi aarch64 --abi mingw64\n"
            "  portkit layout examples/legacy32/include/signals.hpp   # C++: bases, vptr, tail padding\n"
            f"ABIs: {known_names()} (or their triples); NAME:FLAGS is NAME with extra compiler flags"
        ),
        run,
        runs_on="host",
    )
    parser.add_argument("inputs", nargs="*", type=Path, metavar="HEADER_OR_SOURCE")
    parser.add_argument(
        "--abi", action="append", metavar="NAME[:FLAGS]", help="an ABI to compare (repeat; default: arm aarch64)"
    )
    parser.add_argument("--all", action="store_true", help="every record, not only those that differ")
    parser.add_argument("--types", action="store_true", help="the data-type table (sizes/alignments) for the ABIs")
    parser.add_argument("--fail-on-change", action="store_true", help="exit 1 if any record differs between ABIs")
    parser.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR", help="include directory")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define")
    parser.add_argument("--sysroot", type=Path, metavar="DIR", help="a target root with usr/include")
    parser.add_argument(
        "-p",
        "--compile-commands",
        type=Path,
        metavar="FILE",
        help="compile_commands.json: take each file's -I/-D/-std flags from it",
    )


def run(args: argparse.Namespace) -> int:
    abis = [parse_abi(s) for s in (args.abi or DEFAULT_ABIS)]
    if len({a.name for a in abis}) != len(abis):
        raise BadInput("--abi: the same ABI twice")
    if args.sysroot is not None and not args.sysroot.is_dir():
        raise BadInput(f"--sysroot {args.sysroot}: not a directory")
    if args.types:
        document = {"schema": SCHEMA, "abis": [_abi_json(a) for a in abis], "types": type_table(abis, args)}
        emit(args.format, document, render_types, args.output)
        return Exit.OK
    if not args.inputs:
        raise BadInput("layout: name at least one header or source file (or --types)")
    if len(abis) < 2 and not args.all:
        args.all = True
    per_abi, problems = analyse(args, abis)
    document = build_document(abis, per_abi, problems, args.all)
    reported = any(per_abi[a.name] for a in abis)
    if not reported and problems:
        raise BadInput(problems[0] + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""))
    emit(args.format, document, render, args.output)
    for line in problems:
        print(f"portkit: warning: {line}", file=sys.stderr)
    changed = any(r["changed"] for r in document["records"])
    return Exit.FINDINGS if args.fail_on_change and changed else Exit.OK


def _abi_json(a: Abi) -> dict:
    return {
        "name": a.name,
        "triple": a.triple,
        "clang_triple": a.clang_triple,
        "data_model": a.data_model,
        "flags": list(a.flags),
    }


def check_input(path: Path) -> str:
    """Reads a header as text, or says in one line why it cannot be one."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise BadInput(f"{path}: {size} bytes, too large for a header (limit {MAX_BYTES})")
        data = path.read_bytes()
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory") from None
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    if b"\0" in data[:65536]:
        raise BadInput(f"{path}: binary file, not C")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if not text.strip():
        raise BadInput(f"{path}: empty file")
    return text


def file_flags(args: argparse.Namespace, path: Path, db: dict[str, list[str]]) -> list[str]:
    flags = [f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines]
    return flags + db.get(str(path.resolve()), [])


def analyse(args: argparse.Namespace, abis: list[Abi]) -> tuple[dict[str, list[Record]], list[str]]:
    ci = clang.cindex()
    db = load_compile_commands(args.compile_commands)
    per_abi: dict[str, list[Record]] = {a.name: [] for a in abis}
    problems: list[str] = []
    for path in args.inputs:
        try:
            text = check_input(path)
        except BadInput as err:
            problems.append(str(err))
            continue
        flags = file_flags(args, path, db)
        for abi in abis:
            tu, errors = clang.parse(str(path), abi, flags, args.sysroot, text)
            for e in errors[:3]:
                line = f"{e} [{abi.name}]"
                if line not in problems:
                    problems.append(line)
            if len(errors) > 3:
                problems.append(f"{path}: {len(errors) - 3} more errors [{abi.name}]")
            if tu is not None:
                seen = {r.name for r in per_abi[abi.name]}
                pointer = 4 if abi.data_model == "ILP32" else 8
                itanium = "msvc" not in abi.triple
                records = [r for r in collect(ci, tu, pointer, itanium) if r.name not in seen]
                header = str(path.resolve())
                bases.place(ci, header, records, partial(probe, header, abi, flags, args.sysroot))
                per_abi[abi.name] += records
    return per_abi, problems


def probe(header: str, abi: Abi, flags: list[str], sysroot: Path | None, text: str):
    """Parses probe text that includes `header`, as C++, for `abi`."""
    name = header + ".portkit-probe.cpp"  # never written: clang reads it from memory
    tu, _ = clang.parse(name, abi, flags, sysroot, text)  # a base clang cannot name just stays unplaced
    return tu


def build_document(abis: list[Abi], per_abi: dict[str, list[Record]], problems: list[str], show_all: bool) -> dict:
    names: list[str] = []
    for a in abis:
        names += [r.name for r in per_abi[a.name] if r.name not in names]
    records = []
    for name in names:
        versions = [next((r for r in per_abi[a.name] if r.name == name), None) for a in abis]
        incomplete = any(v is not None and v.size is None for v in versions)
        changed = not incomplete and differs(versions)
        if not changed and not incomplete and not show_all:
            continue
        first = next(v for v in versions if v is not None)
        records.append(
            {
                "name": name,
                "kind": first.kind,
                "file": first.file,
                "line": first.line,
                "changed": changed,
                "incomplete": incomplete,
                "reasons": reasons(versions, [a.name for a in abis]) if changed else [],
                "layouts": {
                    a.name: (v.to_json() if v is not None else None) for a, v in zip(abis, versions, strict=True)
                },
            }
        )
    total = len(names)
    return {
        "schema": SCHEMA,
        "abis": [_abi_json(a) for a in abis],
        "records_total": total,
        "records_incomplete": sum(1 for r in records if r["incomplete"]),
        "records_changed": sum(1 for r in records if r["changed"]),
        "records": records,
        "problems": problems,
    }


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
        rows: list[str] = []
        for lay in layouts.values():
            for f in lay["fields"] if lay else []:
                if f["name"] not in rows:
                    rows.append(f["name"])
        table: list[list[Cell]] = []
        for name in rows:
            cells = [
                next((f for f in lay["fields"] if f["name"] == name), None) if lay else None for lay in layouts.values()
            ]
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
    incomplete = sum(1 for r in document["records"] if r["incomplete"])
    out.append(
        f"{document['records_changed']} of {document['records_total']} records differ between "
        f"{' / '.join(abis)}"
        + (f", {incomplete} incomplete" if incomplete else "")
        + (" (--all shows every record)" if document["records_total"] > len(document["records"]) else "")
    )
    return out
