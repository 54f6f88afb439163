"""`portkit audit MODE`: check what was built for a board before the board
does. Each mode is a package of its own (rootfs/, kconfig/) with a
`command.py` whose register(modes) adds it."""

from __future__ import annotations

import argparse

from portkit.commands.audit.rootfs import command as rootfs
from portkit.core.command import Parser

MODES = (rootfs,)
SUMMARY = "check a cross-built root filesystem (and its kernel's configuration) before the board does"
EXAMPLES = "examples:\n  portkit audit rootfs build/rootfs/ --kconfig build/linux/.config"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit",
        help=SUMMARY,
        description=__doc__,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    modes = parser.add_subparsers(title="modes", metavar="MODE", required=True, parser_class=Parser)
    for mode in MODES:
        mode.register(modes)
