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
    where.add_argument(
        "--no-cache",
        action="store_true",
        help="scan every file again and keep no findings (the two data models' type sizes are still kept in "
        "~/.cache/portkit/models, checked against every header they came from)",
    )
    group.add_argument(
        "--changed-since",
        metavar="REV",
        help="show only findings in files changed since the git revision REV (as git diff names them), "
        "and in files whose included headers changed: a pull request's",
    )


def add_fix_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("fixing")
    how = group.add_mutually_exclusive_group()
    how.add_argument(
        "--fix",
        action="store_true",
        help="rewrite the files with the fixes that are mechanical (format length modifiers and PRI* macros, "
        "(intptr_t) casts, sizeof for a literal 4, UINT32_MAX), each checked to compile for both ABIs and "
        "to end its finding; then report what is left",
    )
    how.add_argument("--diff", action="store_true", help="print those fixes as a unified diff; write no file")
    parser.set_defaults(fixes=None)  # what --fix did, for the report that follows it
