"""`portkit layout`: which structs and unions change between two data models
(AArch32 ILP32 -> AArch64 LP64 by default) and exactly how, to the byte
(the IVI AArch64 porting field report: "sizeof(struct bar) = 16 on AArch32, 32 on AArch64")."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path

from portkit.commands.layout.analyse import analyse
from portkit.commands.layout.document import SCHEMA, abi_json, build_document
from portkit.commands.layout.render import render
from portkit.commands.layout.types import render_types, type_table
from portkit.core.abis import DEFAULT_ABIS, Abi, known_names, parse_abi
from portkit.core.command import add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import count, emit, error, terminal_width, warn
from portkit.core.progress import StatusLine
from portkit.cparse.compdb import NAME
from portkit.cparse.inputs import units
from portkit.cparse.options import add_source_options, check_sysroot, given_flags, jobs, parse_timeout

SUMMARY = "struct and union layouts across data models (ILP32, LP64, LLP64), exact to the byte"
EXAMPLES = (
    "examples:\n"
    "  portkit layout examples/legacy32/include/wire.h   arm -> aarch64, the default\n"
    "  portkit layout examples/legacy32/ --abi x86_64   every C and C++ file below it\n"
    "  portkit layout examples/legacy32/include/timestamp.h --abi armhf \\\n"
    "      --abi 'armhf:-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64'\n"
    "  portkit layout --types --abi armhf --abi aarch64 --abi mingw64\n"
    "  portkit layout examples/legacy32/include/signals.hpp   C++: bases, vptr\n"
    "  portkit layout -p build/      every file of build/compile_commands.json,\n"
    "                                each with its own flags\n"
    + textwrap.fill(f"ABIs: {known_names()} (or their triples); NAME:FLAGS is NAME with extra compiler flags", 79)
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "layout", SUMMARY, __doc__, EXAMPLES, run, runs_on="host")
    parser.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="FILE_OR_DIR",
        help="headers and sources; a directory: its C and C++ files, as scan finds them; "
        "a compile_commands.json: as -p",
    )
    parser.add_argument(
        "--abi",
        action="append",
        metavar="NAME[:FLAGS]",
        help="an ABI to compare (repeat; default: arm and aarch64); one --abi is compared with arm, "
        "the default source (--abi arm with aarch64); --types shows the ABIs as given",
    )
    parser.add_argument("--all", action="store_true", help="every record, not only those that differ")
    parser.add_argument("--types", action="store_true", help="the data-type table (sizes/alignments) for the ABIs")
    parser.add_argument("--fail-on-change", action="store_true", help="exit 1 if any record differs between ABIs")
    add_source_options(parser)


def run(args: argparse.Namespace) -> int:
    abis = _abis(args.abi, paired=not args.types)
    check_sysroot(args)
    if args.types:
        document = {"schema": SCHEMA, "abis": [abi_json(a) for a in abis], "types": type_table(abis, args)}
        emit(args.format, document, render_types, args.output)
        return Exit.OK
    inputs, database = _inputs_and_database(args)
    if not inputs and database is None:
        raise BadInput("layout: name headers, sources or directories, or -p BUILD_DIR (or --types)")
    unread: list[str] = []
    found = units(inputs, database, given_flags(args), unread, unread, headers=True)
    flags = {unit.path: list(unit.flags) for unit in found}
    with StatusLine(quiet=args.quiet) as status:
        analysis = analyse(
            list(flags), abis, flags.__getitem__, args.sysroot, jobs(args), parse_timeout(args), _parsed(status)
        )
    analysis.failed[:0] = unread
    document = build_document(abis, analysis, show_all=args.all)
    problems = analysis.failed + analysis.problems
    if not any(analysis.per_abi.values()) and problems:
        more = f" (and {count(len(problems) - 1, 'more problem')})" if len(problems) > 1 else ""
        raise BadInput(problems[0] + more)
    emit(args.format, document, lambda d: render(d, _text_width(args)), args.output)
    for line in analysis.problems:
        warn(line)
    for line in analysis.failed:
        error(line)
    if analysis.failed:
        return Exit.USAGE  # the report stands, but some input is not in it
    changed = any(r["changed"] for r in document["records"])
    return Exit.FINDINGS if args.fail_on_change and changed else Exit.OK


def _abis(specs: list[str] | None, *, paired: bool) -> list[Abi]:
    """The ABIs as --abi gives them (default: arm and aarch64). A comparison
    (paired) needs two: one --abi is compared with arm, the default source,
    or --abi arm with aarch64, rather than with nothing."""
    abis = [parse_abi(s) for s in (specs or DEFAULT_ABIS)]
    if paired and len(abis) == 1:
        source, target = (parse_abi(name) for name in DEFAULT_ABIS)
        abis = [source, target] if abis[0].name == source.name else [source, abis[0]]
    if len({a.name for a in abis}) != len(abis):
        raise BadInput("--abi: the same ABI twice")
    return abis


def _inputs_and_database(args: argparse.Namespace) -> tuple[list[Path], Path | None]:
    """The inputs, and the compilation database: -p, or a compile_commands.json among the inputs."""
    databases = [p for p in args.inputs if p.name == NAME and p.is_file()]
    inputs = [p for p in args.inputs if p not in databases]
    if args.compile_commands is not None:
        databases.insert(0, args.compile_commands)
    if len(databases) > 1:
        raise BadInput(f"layout: one compilation database at a time ({', '.join(map(str, databases))})")
    return inputs, databases[0] if databases else None


def _text_width(args: argparse.Namespace) -> int | None:
    """The terminal's width the text goes to, None for -o FILE or a pipe."""
    return terminal_width() if args.output is None else None


def _parsed(status: StatusLine) -> Callable[[int, int], None]:
    """`layout: 12/340 parses` on the status line as each (file, ABI) parse ends."""

    def done(finished: int, total: int) -> None:
        status.show(f"layout: {finished}/{total} parses", now=finished == total)

    return done
