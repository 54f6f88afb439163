"""`portkit vdso list`, the default mode: the vDSO's symbols and versions;
without one, what each gettimeofday costs and why it may be missing."""

from __future__ import annotations

import argparse
from pathlib import Path

from portkit.commands.vdso.render import render_list as render
from portkit.core.errors import BadInput

NAME = "list"
SCHEMA = "portkit.vdso/2"
OPTIONS = ("image", "dump", "require")  # by argparse dest, in the agent's order
DOCUMENT_EXITS: frozenset[int] = frozenset()

__all__ = ["DOCUMENT_EXITS", "NAME", "OPTIONS", "SCHEMA", "add_options", "calls", "check", "files", "render"]


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(NAME)
    group.add_argument("--image", type=Path, metavar="FILE", help="parse a vdso.so file instead of the live vDSO")
    group.add_argument("--dump", type=Path, metavar="FILE", help="save the live vDSO image to FILE")
    group.add_argument("--require", action="store_true", default=None, help="exit 1 when there is no vDSO")


def check(args: argparse.Namespace, prog: str) -> None:
    if args.image is not None and args.dump is not None:
        raise BadInput(f"{prog}: --image and --dump cannot be combined (--dump writes the live vDSO)")


def calls(_: argparse.Namespace) -> int:
    """The clock calls the mode makes (none: it reads the image)."""
    return 0


def files(args: argparse.Namespace) -> dict[str, tuple[str, ...]]:
    """--image is read and --dump written on the target: a VM is given the one and sends the other back."""
    return {"inputs": (str(args.image),) if args.image else (), "outputs": (str(args.dump),) if args.dump else ()}
