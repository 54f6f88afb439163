"""The options of every command that reads C and C++ (layout, scan): include
paths, defines, a sysroot, a compilation database, parallel parsing and its
time limit, declared and checked in one place."""

from __future__ import annotations

import argparse
from pathlib import Path

from portkit.core.command import seconds, whole
from portkit.core.errors import BadInput
from portkit.core.workers import default_jobs
from portkit.cparse.parse import DEFAULT_TIMEOUT


def add_source_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("reading C and C++")
    group.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR", help="include directory")
    group.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define")
    group.add_argument("--sysroot", type=Path, metavar="DIR", help="a target root with usr/include")
    group.add_argument(
        "-p",
        "--compile-commands",
        type=Path,
        metavar="PATH",
        help="a build directory with compile_commands.json, or the file: each file's own flags",
    )
    group.add_argument(
        "-j", "--jobs", type=whole(1, 1024), metavar="N", help="parse N files at once (default: all cores)"
    )
    group.add_argument(
        "--parse-timeout",
        type=seconds(24 * 3600, zero=True),
        metavar="S",
        help=f"give up on parsing one file after S seconds (default {DEFAULT_TIMEOUT:g}; 0: never)",
    )


def given_flags(args: argparse.Namespace) -> list[str]:
    """-I and -D as the compiler takes them."""
    return [f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines]


def check_sysroot(args: argparse.Namespace) -> None:
    if args.sysroot is not None and not args.sysroot.is_dir():
        raise BadInput(f"--sysroot {args.sysroot}: not a directory")


def jobs(args: argparse.Namespace) -> int:
    return args.jobs or default_jobs()


def parse_timeout(args: argparse.Namespace) -> float | None:
    """Seconds for one parse, None for no limit."""
    return DEFAULT_TIMEOUT if args.parse_timeout is None else args.parse_timeout or None
