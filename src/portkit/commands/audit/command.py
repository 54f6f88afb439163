"""`portkit audit MODE ...`: audits of what goes onto a board, one mode each
(a package beside this file with its own command.py). This file only lists
the modes; each registers its own parser, options and run function."""

from __future__ import annotations

import argparse

from portkit.commands.audit.kconfig import command as kconfig
from portkit.core.command import Parser

MODES = (kconfig,)
SUMMARY = "audit a kernel config (kconfig) before the board runs it"
EXAMPLES = (
    "examples:\n"
    "  portkit audit kconfig                  the running kernel's config\n"
    "  portkit audit kconfig build/.config    a kernel build's config\n"
    "  portkit audit kconfig --help           the mode's options"
)


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
