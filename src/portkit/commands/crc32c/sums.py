"""`portkit crc32c [FILE...]` and `--check LIST`: the sums, or the list
verified, by the agent on --target (the mode without --bench)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from portkit.commands.crc32c.render import render_sums
from portkit.core.errors import Exit
from portkit.core.output import deliver, emit
from portkit.core.target import START_SECONDS, AgentCall
from portkit.core.targets import run_agent

SCHEMA = "portkit.crc32c/1"
# For the time limit: a slow board reading a slow card.
SLOW_BYTES_PER_SECOND = 4e6
STDIN_SECONDS = 3600.0  # the bytes on stdin come as fast as the producer makes them


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="files to sum; - or none: stdin")
    parser.add_argument("-c", "--check", metavar="LIST", help="verify the '<crc>  FILE' lines of LIST (-: stdin)")


def run(args: argparse.Namespace) -> int:
    """Sums or --check by the agent. Its exit 2 (unreadable files, malformed
    lines) still comes with every result; its stderr lines (one per unreadable
    file, one for the malformed lines, one for the mismatches) are relayed."""
    call = AgentCall(
        ("crc32c", *(("--check", args.check) if args.check else ())),
        SCHEMA,
        timeout(args.check, args.files),
        operands=tuple(args.files),
        document_exits=frozenset({Exit.USAGE}),
        # the list and the files it names are read on the target (a VM is given them)
        inputs=(args.check, *_names_in_list(Path(args.check))) if args.check and args.check != "-" else (),
    )
    result = run_agent(args, call)
    document = result.document
    if args.format == "json":
        emit("json", document, lambda _: [], args.output)
        return result.exit_code
    # Names go out verbatim: never through rich, which would read [..] in them as markup.
    deliver(render_sums(document), args.output)
    return result.exit_code


def timeout(check: str | None, files: list[str]) -> float:
    """Start-up plus the bytes the agent will read, at a slow board's pace.
    The files a list names are estimated from its lines (a wrong guess only
    changes the limit; the agent is what parses the list)."""
    if check is not None:
        if check == "-":
            return START_SECONDS + STDIN_SECONDS
        files = _names_in_list(Path(check))
    if not files or "-" in files:
        return START_SECONDS + STDIN_SECONDS
    return START_SECONDS + sum(_size(name) for name in files) / SLOW_BYTES_PER_SECOND


def _names_in_list(path: Path) -> list[str]:
    try:
        lines = path.read_bytes().splitlines()
    except OSError:
        return []  # the agent says why
    # A line holding a NUL byte names no file (the agent finds it malformed).
    return [os.fsdecode(line[10:].rstrip(b"\r")) for line in lines if len(line) > 10 and b"\0" not in line]


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:
        return 0
