"""`portkit COMMAND [options]`: the top of the host tool, the one place that
knows every command (docs/architecture.md).

Each command package under portkit/commands/ has `command.py` with
`register(subparsers)`, which adds its parser through core.command.add_command;
`run(args) -> int` returns the exit code. Errors end here as one line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from portkit import __version__
from portkit.commands.audit import command as audit
from portkit.commands.cpu import command as cpu
from portkit.commands.crc32c import command as crc32c
from portkit.commands.layout import command as layout
from portkit.commands.rt import command as rt
from portkit.commands.scan import command as scan
from portkit.commands.vdso import command as vdso
from portkit.core.command import Parser
from portkit.core.errors import Exit, PortkitError

COMMANDS = (cpu, vdso, crc32c, layout, scan, rt, audit)


def build_parser() -> Parser:
    parser = Parser(
        prog="portkit",
        description="Move embedded Linux software to 64-bit and real-time targets, and prove the result.",
        epilog="example: portkit vdso bench --target qemu-aarch64",
    )
    parser.add_argument("--version", action="version", version=f"portkit {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True, parser_class=Parser)
    for module in COMMANDS:
        module.register(subparsers)
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
