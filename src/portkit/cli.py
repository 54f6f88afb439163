"""`portkit COMMAND [options]`: the top of the host tool, the one place that
knows every command (docs/architecture.md).

Each command package under portkit/commands/ has `command.py` with
`register(subparsers)`, which adds its parser through core.command.add_command;
`run(args) -> int` returns the exit code. Errors end here as one line.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, NoReturn

from portkit import __version__
from portkit.core.command import ExamplesFormatter, Parser
from portkit.core.errors import Exit, PortkitError
from portkit.core.output import tell

if TYPE_CHECKING:
    from portkit.core.workers import Host

# Each command's module, imported only when that command is asked for:
# `portkit scan` does not pay for loading audit's rule tables, which is a
# tenth of a second of every short run.
COMMANDS = {
    name: f"portkit.commands.{name}.command"
    for name in ("cpu", "vdso", "crc32c", "layout", "scan", "rt", "audit", "report", "agents")
}
# Each command's SUMMARY, for the list of commands (`portkit --help`, a
# mistyped command) without importing all nine (half a second);
# tests/test_cli.py checks them against the commands' own.
SUMMARIES = {
    "cpu": "optional instruction-set features of a target's CPU and kernel",
    "vdso": "list, verify and benchmark the kernel's vDSO",
    "crc32c": "CRC32C of files (like sha256sum), --check a list, --bench the implementations",
    "layout": "struct and union layouts across data models (ILP32, LP64, LLP64), exact to the byte",
    "scan": "64-bit portability defects in C/C++ (ILP32 -> LP64 by default), few false alarms",
    "rt": "wake-up and interrupt latency under load: measure, tabulate, plot, compare",
    "audit": "check what goes onto a board before the board does: a root filesystem (rootfs), a kernel config "
    "(kconfig)",
    "report": "is this port ready? every area's verdict from saved results or checks run here",
    "agents": "the agents portkit runs on its targets: where they are, how large",
}

# The commands that parse C with libclang whatever their options: its loading
# starts while they are imported (layout's modes mostly do not parse).
USES_LIBCLANG = frozenset({"scan"})
# The commands whose workers a host forks (core.workers.Host), and what the
# host imports for them while the command reads its input: scan's rules and
# walk, which the command's own process then never imports.
HOSTED = {"scan": ("portkit.commands.scan.engine", "portkit.commands.scan.cache")}
# What both the command and its host import (scan's jobs, models and cache):
# imported before the host is forked, once for both, as is libclang when the
# command reads a compile database with it (0.05 s of CPU a scan saved, and
# no later: the host's own imports are that much shorter).
SHARED = {"scan": ("portkit.commands.scan.cache",)}
# Words after which a command does no work of its workers' (help, the rule list).
NO_WORK = frozenset({"-h", "--help", "--list-rules"})

EPILOG = """\
examples:
  portkit scan examples/legacy32/            64-bit portability defects in C
  portkit vdso bench --target qemu-aarch64   the vDSO of an emulated AArch64 target
  portkit vdso --target vm:linux-image-arm64 --agent-arch armhf   a 32-bit program on Debian's arm64 kernel
  portkit COMMAND --help                     each command's options and examples

exit status:
  0    success: nothing failed, no finding at or above --fail-on
  1    a check failed, or findings at or above --fail-on
  2    bad usage or bad input (one line on stderr names it and why)
  3    this environment cannot do it (a missing tool, permission, a target
       that cannot be reached; the line says how to fix it)
  130  interrupted (Ctrl-C); what was measured so far is kept"""


def build_parser(argv: Sequence[str] | None = None, *, listing: bool = False) -> Parser:
    """The parser with the command argv names, or every command when argv
    names none (the top-level help, a mistyped command). listing: the
    commands argv does not name by their name and summary alone, which is
    all the list of commands shows."""
    parser = Parser(
        prog="portkit",
        description="Move embedded Linux software to 64-bit and real-time targets, and prove the result.",
        epilog=EPILOG,
        formatter_class=ExamplesFormatter,
    )
    parser.add_argument("--version", action="version", version=f"portkit {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True, parser_class=Parser)
    words = list(sys.argv[1:] if argv is None else argv)
    named = [words[0]] if words and words[0] in COMMANDS else []
    if listing and not named:  # `portkit -q scan`: scan's own parser still reads what follows it
        named = [w for w in words if w in COMMANDS]
    for name, module in COMMANDS.items():
        if name in named or not (listing or named):
            importlib.import_module(module).register(subparsers)
        elif listing:
            subparsers.add_parser(name, help=SUMMARIES[name])
    parser.complete()
    return parser


def entry() -> NoReturn:
    """The `portkit` program: main(), then out without Python's own teardown.
    Freeing every module and object one by one (libclang's bindings, the
    rules, the findings) is tens of milliseconds of a short scan, and the
    kernel frees a process's memory at once. Output is flushed first; an
    in-process caller (tests) calls main()."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away (`| head`): what it took stands
        pass
    except OSError as err:  # `> /dev/full`, a full disk behind `> file`: the output is lost
        tell("error", f"standard output could not be written: {err.strerror}")
        code = int(Exit.ENVIRONMENT)
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    host = _start_host(words)  # first: a fork while no other thread runs
    wait = _start_loading_libclang() if host is None and _loads_libclang(words, hosted=False) else None
    try:
        return _run(argv, host)
    finally:
        if host is not None:
            host.stop()
        if wait is not None:
            with contextlib.suppress(KeyboardInterrupt):
                wait()  # never exit while another thread is inside dlopen


def _loads_libclang(words: Sequence[str], hosted: bool) -> bool:
    """Whether this process needs libclang: for a command that parses C, unless
    a host parses for it (hosted); then only to read a compile database
    (libclang reads those), else on demand (a model probe the cache lacks)."""
    if not words or words[0] not in USES_LIBCLANG:
        return False
    return not hosted or any(_names_database(word) for word in words[1:])


def _names_database(word: str) -> bool:
    """-p DIR, -pDIR, --compile-commands DIR or a prefix argparse accepts of it."""
    option = word.split("=", 1)[0]
    return (word.startswith("-p") and not word.startswith("--")) or (
        len(option) > 3 and "--compile-commands".startswith(option)
    )


def _start_host(words: Sequence[str]) -> Host | None:
    """The host of the workers of the command words name, when it has work for them."""
    modules = HOSTED.get(words[0]) if words else None
    if modules is None or NO_WORK.intersection(words):
        return None
    from portkit.core.workers import Host  # only for the commands that parse in workers
    from portkit.cparse.libclang import load_now, preload

    for module in SHARED.get(words[0], ()):
        importlib.import_module(module)
    if _loads_libclang(words, hosted=True):  # this process reads a compile database with it
        load_now()
    return Host(partial(preload, modules))


def _start_loading_libclang():
    from portkit.cparse.libclang import load_early  # only for the commands that parse C

    return load_early()


def _run(argv: Sequence[str] | None, host: Host | None = None) -> int:
    try:
        parser = build_parser(argv, listing=True)
        if not (sys.argv[1:] if argv is None else argv):  # the first thing a new user types
            parser.print_help()
            return int(Exit.OK)
        args = parser.parse_args(argv)
        if host is not None and hasattr(args, "worker_host"):
            args.worker_host = host
        return int(args.run(args))
    except PortkitError as err:
        hint = f" (hint: {err.hint})" if err.hint else ""
        tell("error", f"{err}{hint}")
        return int(err.exit_code)
    except KeyboardInterrupt:
        print("portkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from
        # complaining when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return int(Exit.OK)
