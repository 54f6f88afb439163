"""How a capability module adds its subcommand to `portkit` (see cli.py)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def add_command(
    subparsers: argparse._SubParsersAction,
    common: argparse.ArgumentParser,
    name: str,
    summary: str,
    description: str | None,
    examples: str,
    run: Callable[[argparse.Namespace], int],
) -> argparse.ArgumentParser:
    """Adds `portkit NAME` with the common options, a help text whose epilog
    shows examples (every command's --help must), and its run function."""
    parser = subparsers.add_parser(
        name,
        parents=[common],
        help=summary,
        description=description,
        epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run)
    return parser
