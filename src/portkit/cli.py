"""`portkit COMMAND [options]`: the command line every capability plugs into.

Each command module has `register(subparsers, common)` that adds its parser
with `set_defaults(run=...)`; `run(args) -> int` returns the exit code.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from portkit import __version__, cpu, crc32c_cmd, vdso
from portkit.errors import BadInput, Exit, PortkitError
from portkit.layout import command as layout

COMMANDS = (cpu, vdso, crc32c_cmd, layout)


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line (exit 2), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise BadInput(f"{self.prog}: {message} (see --help)")


def common_options() -> argparse.ArgumentParser:
    """Options every command takes (design.md conventions)."""
    common = Parser(add_help=False)
    group = common.add_argument_group("output and target")
    group.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    group.add_argument("-o", "--output", type=Path, metavar="FILE", help="write to FILE atomically instead of stdout")
    group.add_argument(
        "--target",
        default="local",
        metavar="SPEC",
        help="where the agent runs: local (default), qemu-ARCH or qemu-ARCH:CPU, e.g. qemu-aarch64:cortex-a53",
    )
    group.add_argument(
        "--agent", type=Path, metavar="PATH", help="the portkit-target binary to run (default: the built one)"
    )
    return common


def build_parser() -> Parser:
    parser = Parser(
        prog="portkit",
        description="Move embedded Linux software to 64-bit and real-time targets, and prove the result.",
        epilog="example: portkit vdso bench --target qemu-aarch64",
    )
    parser.add_argument("--version", action="version", version=f"portkit {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    common = common_options()
    for module in COMMANDS:
        module.register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args))
    except PortkitError as err:
        hint = f" (hint: {err.hint})" if err.hint else ""
        print(f"portkit: error: {err}{hint}", file=sys.stderr)
        return int(err.exit_code)
    except KeyboardInterrupt:
        print("portkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from
        # complaining when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return int(Exit.OK)
