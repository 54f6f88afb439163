"""scan's options beyond reading C and reporting findings: where the cache
lives, the revision a pull request starts from, and fixing."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_rescan_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rescanning")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--cache",
        type=Path,
        metavar="DIR",
        help="keep each file's findings in DIR and reuse them while the file, its flags and every header "
        "it includes are unchanged (default: .portkit-cache/ beside -p's compile database, else "
        "~/.cache/portkit/scan)",
    )
    where.add_argument("--no-cache", action="store_true", help="scan every file again; keep nothing")
    group.add_argument(
        "--changed-since",
        metavar="REV",
        help="show only findings in files changed since the git revision REV (as git diff names them), "
        "and in files whose included headers changed: a pull request's",
    )
