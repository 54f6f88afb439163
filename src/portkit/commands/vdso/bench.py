"""`portkit vdso bench`: ns per call through libc, the vDSO and the raw
system call."""

from __future__ import annotations

import argparse

from portkit.commands.vdso.render import FIELD_REPORT_CALLS
from portkit.commands.vdso.render import render_bench as render
from portkit.core.command import whole
from portkit.core.errors import BadInput

NAME = "bench"
SCHEMA = "portkit.vdso-bench/2"
OPTIONS = ("calls", "repeat")
DOCUMENT_EXITS: frozenset[int] = frozenset()
DEFAULT_CALLS = FIELD_REPORT_CALLS
DEFAULT_REPEAT = 5
MAX_TOTAL_CALLS = 1_000_000_000  # per path, as the agent allows
CALLS_PER_CALL = 2 * 3  # 2 functions x 3 paths

__all__ = ["DOCUMENT_EXITS", "NAME", "OPTIONS", "SCHEMA", "add_options", "calls", "check", "files", "render"]


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(NAME)
    group.add_argument(
        "--calls", type=whole(1, 100_000_000), metavar="N", help=f"calls per measurement (default {DEFAULT_CALLS})"
    )
    group.add_argument(
        "--repeat",
        type=whole(1, 1000),
        metavar="R",
        help=f"measurements per method; the median is shown (default {DEFAULT_REPEAT})",
    )


def check(args: argparse.Namespace, prog: str) -> None:
    calls, repeat = args.calls or DEFAULT_CALLS, args.repeat or DEFAULT_REPEAT
    if calls * repeat > MAX_TOTAL_CALLS:
        raise BadInput(f"{prog}: --calls {calls} x --repeat {repeat} is more than {MAX_TOTAL_CALLS} calls per path")


def calls(args: argparse.Namespace) -> int:
    return (args.calls or DEFAULT_CALLS) * (args.repeat or DEFAULT_REPEAT) * CALLS_PER_CALL


def files(_: argparse.Namespace) -> dict[str, tuple[str, ...]]:
    return {}
