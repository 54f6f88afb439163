"""`portkit layout`: which structs and unions change between two data models
(AArch32 ILP32 -> AArch64 LP64 by default) and exactly how, to the byte
(the IVI AArch64 porting field report: "sizeof(struct bar) = 16 on AArch32, 32 on AArch64")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from portkit.commands.layout.analyse import analyse
from portkit.commands.layout.document import SCHEMA, abi_json, build_document
from portkit.commands.layout.render import render
from portkit.commands.layout.types import render_types, type_table
from portkit.core.abis import DEFAULT_ABIS, known_names, parse_abi
from portkit.core.command import add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import emit
from portkit.cparse.compdb import CompileDatabase
from portkit.cparse.options import add_source_options, check_sysroot, given_flags, jobs, parse_timeout

SUMMARY = "struct and union layouts across data models (ILP32, LP64, LLP64), exact to the byte"
EXAMPLES = (
    "examples:\n"
    "  portkit layout examples/legacy32/include/wire.h\n"
    "  portkit layout src/*.h --abi armhf --abi 'armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64'\n"
    "  portkit layout --types --abi armhf --abi aarch64 --abi mingw64\n"
    "  portkit layout examples/legacy32/include/signals.hpp   # C++: bases, vptr, tail padding\n"
    "  portkit layout -p build/ src/*.c include/*.h   # each file with its own flags from compile_commands.json\n"
    f"ABIs: {known_names()} (or their triples); NAME:FLAGS is NAME with extra compiler flags"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "layout", SUMMARY, __doc__, EXAMPLES, run, runs_on="host")
    parser.add_argument("inputs", nargs="*", type=Path, metavar="HEADER_OR_SOURCE")
    parser.add_argument(
        "--abi", action="append", metavar="NAME[:FLAGS]", help="an ABI to compare (repeat; default: arm aarch64)"
    )
    parser.add_argument("--all", action="store_true", help="every record, not only those that differ")
    parser.add_argument("--types", action="store_true", help="the data-type table (sizes/alignments) for the ABIs")
    parser.add_argument("--fail-on-change", action="store_true", help="exit 1 if any record differs between ABIs")
    add_source_options(parser)


def run(args: argparse.Namespace) -> int:
    abis = [parse_abi(s) for s in (args.abi or DEFAULT_ABIS)]
    if len({a.name for a in abis}) != len(abis):
        raise BadInput("--abi: the same ABI twice")
    check_sysroot(args)
    if args.types:
        document = {"schema": SCHEMA, "abis": [abi_json(a) for a in abis], "types": type_table(abis, args)}
        emit(args.format, document, render_types, args.output)
        return Exit.OK
    if not args.inputs:
        raise BadInput("layout: name at least one header or source file (or --types)")
    analysis = analyse(args.inputs, abis, flags_for(args), args.sysroot, jobs(args), parse_timeout(args))
    document = build_document(abis, analysis, show_all=args.all or len(abis) < 2)
    unread = analysis.failed + analysis.problems
    if not any(analysis.per_abi.values()) and unread:
        raise BadInput(unread[0] + (f" (and {len(unread) - 1} more problems)" if len(unread) > 1 else ""))
    emit(args.format, document, render, args.output)
    for line in analysis.problems:
        print(f"portkit: warning: {line}", file=sys.stderr)
    for line in analysis.failed:
        print(f"portkit: error: {line}", file=sys.stderr)
    if analysis.failed:
        return Exit.USAGE  # the report stands, but some input is not in it
    changed = any(r["changed"] for r in document["records"])
    return Exit.FINDINGS if args.fail_on_change and changed else Exit.OK


def flags_for(args: argparse.Namespace) -> Callable[[Path], list[str]]:
    """Each input's flags: -I/-D given here, then its own from -p."""
    given = given_flags(args)
    if args.compile_commands is None:
        return lambda _: given
    database = CompileDatabase(args.compile_commands)
    return lambda path: given + database.flags_for(path)
