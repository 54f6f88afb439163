"""`portkit vdso verify`: every vDSO reading lies between two system calls of
the same clock, and clock_getres agrees both ways (exit 1 when not; exit 3,
with its document, when there is no vDSO to verify)."""

from __future__ import annotations

import argparse

from portkit.commands.vdso.render import render_verify as render
from portkit.core.command import whole
from portkit.core.errors import Exit

NAME = "verify"
SCHEMA = "portkit.vdso-verify/2"
OPTIONS = ("iterations", "clock")
# without a vDSO there is nothing to verify: exit 3 with its document, which says why
DOCUMENT_EXITS = frozenset({Exit.ENVIRONMENT})
DEFAULT_ITERATIONS = 10_000
CALLS_PER_ITERATION = 60 * 3  # checks x 3 readings

__all__ = ["DOCUMENT_EXITS", "NAME", "OPTIONS", "SCHEMA", "add_options", "calls", "check", "files", "render"]


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(NAME)
    group.add_argument(
        "--iterations",
        type=whole(1, 100_000_000),
        metavar="N",
        help=f"interleaved samples per check (default {DEFAULT_ITERATIONS})",
    )
    group.add_argument("--clock", metavar="NAME", help="check only this clock (e.g. MONOTONIC)")


def check(_: argparse.Namespace, __: str) -> None:
    """Nothing beyond each option's own range."""


def calls(args: argparse.Namespace) -> int:
    return (args.iterations or DEFAULT_ITERATIONS) * CALLS_PER_ITERATION


def files(_: argparse.Namespace) -> dict[str, tuple[str, ...]]:
    return {}
