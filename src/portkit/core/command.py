"""How a command plugs into `portkit` (docs/architecture.md, "Adding a host command").

Each command package has a `command.py` whose `register(subparsers)` calls
add_command() once; the run function it names returns the exit code. Options
belong to the commands that use them: an agent command gets --target, --agent,
--agent-arch and --timeout, a host command refuses them with one line rather than ignoring them.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NoReturn

from portkit.core.errors import BadInput

Runs = Literal["agent", "host"]
# The commands with runs_on="agent", for the refusal of the others (a test
# checks this against the parsers: only the command asked for is imported).
AGENT_COMMANDS = "cpu, vdso, crc32c, rt run, rt sysinfo, audit kconfig and report"


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line (exit 2), not a usage
    dump, and that can be given options to add after the command's own
    (add_last; cli completes every parser once the commands are registered),
    so that a shared group such as the findings options closes every
    command's usage and help alike."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._last: list[Callable[[argparse.ArgumentParser], None]] = []

    def add_last(self, add: Callable[[argparse.ArgumentParser], None]) -> None:
        """add(parser) adds its options once the command has added its own."""
        self._last.append(add)

    def complete(self) -> None:
        """Adds the add_last options here and in every command and mode below."""
        while self._last:
            self._last.pop(0)(self)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for parser in action.choices.values():
                    parser.complete()

    def error(self, message: str) -> NoReturn:
        # "portkit: error: scan: ...": the command once, after portkit's own prefix
        command = self.prog.removeprefix("portkit").strip()
        raise BadInput(f"{command + ': ' if command else ''}{message} (see --help)")


def add_command(
    subparsers: argparse._SubParsersAction,
    name: str,
    summary: str,
    description: str | None,
    examples: str,
    run: Callable[[argparse.Namespace], int],
    *,
    runs_on: Runs,
    formats: Sequence[str] = ("text", "json"),
    output_file: bool = True,
) -> Parser:
    """Adds `portkit NAME`: a help text whose epilog shows examples (every
    command's --help must), the output options, the target options of an agent
    command (runs_on="agent"), and its run function. A command whose output is
    a directory (output_file=False) declares its own -o."""
    parser = _with_examples(subparsers, name, summary, description, examples)
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=tuple(formats), default=formats[0], help=f"{' or '.join(formats)}")
    if output_file:
        group.add_argument(
            "-o", "--output", type=Path, metavar="FILE", help="write to FILE atomically instead of stdout"
        )
    group.add_argument(
        "-q", "--quiet", action="store_true", help="no progress line on stderr (shown only on a terminal)"
    )
    if runs_on == "agent":
        _add_target_options(parser)
    else:
        for option in ("--target", "--agent", "--agent-arch", "--timeout"):
            parser.add_argument(option, action=_HostOnly, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)
    return parser


def add_output_directory(parser: argparse.ArgumentParser, meaning: str) -> None:
    """-o DIR, required, of a command whose output is a directory
    (add_command(..., output_file=False)); args.directory holds it."""
    parser.add_argument("-o", "--output", dest="directory", type=Path, required=True, metavar="DIR", help=meaning)


def _with_examples(
    subparsers: argparse._SubParsersAction, name: str, summary: str, description: str | None, examples: str
) -> Parser:
    """`portkit NAME`'s parser, its epilog the examples (laid out as written);
    a Parser, as every subparsers of portkit's make them."""
    return subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=examples,
        formatter_class=ExamplesFormatter,
    )


EXAMPLE = re.compile(r"^\s*(portkit .*?)(?:\s{2,}(\S.*))?$")  # `  portkit ...  what it shows`


class ExamplesFormatter(argparse.RawDescriptionHelpFormatter):
    """Help whose description and examples keep the lines they were written
    in where they fit, and fit the terminal where they do not: an example
    (`  portkit ...   what it shows`) puts its explanation on the next line,
    a sentence folds at spaces."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines = []
        for line in text.splitlines():
            start = indent + " " * (len(line) - len(line.lstrip()))
            example = EXAMPLE.match(line)
            if len(indent + line) <= width:
                lines.append(indent + line)
            elif example is not None:
                command, explanation = example.group(1, 2)
                # a long command continues as a shell reads it, so it can still be pasted
                pieces = textwrap.wrap(command, width - 2, initial_indent=start, subsequent_indent=start + "    ")
                lines += [piece + " \\" for piece in pieces[:-1]] + pieces[-1:]
                lines += textwrap.wrap(
                    explanation or "", width, initial_indent=start + "    ", subsequent_indent=start + "    "
                )
            else:
                lines += textwrap.wrap(line.strip(), width, initial_indent=start, subsequent_indent=start)
        return "\n".join(lines)


def add_modes(
    subparsers: argparse._SubParsersAction, name: str, summary: str, description: str | None, examples: str
) -> argparse._SubParsersAction:
    """Adds `portkit NAME MODE`, a command made of modes (rt, audit): its help
    shows examples; each mode is then an add_command on what this returns."""
    parser = _with_examples(subparsers, name, summary, description, examples)
    return parser.add_subparsers(title="modes", metavar="MODE", required=True, parser_class=Parser)


def _add_target_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("target")
    group.add_argument(
        "--target",
        default="local",
        metavar="SPEC",
        help="where the agent runs: local (default), qemu-ARCH, qemu-ARCH:CPU (e.g. qemu-aarch64:cortex-a53), "
        "a board: ssh:[USER@]HOST[:PORT] (the agent is copied there for the command), or a real kernel in a "
        "VM: vm:PACKAGE (a Debian kernel package, e.g. vm:linux-image-arm64) or vm:PATH (an image or .deb)",
    )
    group.add_argument(
        "--agent",
        metavar="PATH",
        help="the portkit-target binary to run (default: the installed one for the target's architecture; "
        "with ssh:, a path on the board, used as given)",
    )
    group.add_argument(
        "--agent-arch",
        metavar="ARCH",
        help="run the installed agent of ARCH instead of the target's own, e.g. armhf on an arm64 kernel or "
        "i686 on x86_64 (a 32-bit program on a 64-bit kernel); `portkit agents` lists them",
    )
    group.add_argument(
        "--timeout",
        type=seconds(7 * 24 * 3600, zero=True),
        metavar="S",
        help="stop the agent after S seconds (default: suited to the command and its options; 0: no limit)",
    )


class _HostOnly(argparse.Action):
    """A target option given to a command that runs on this host."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        kwargs.pop("nargs", None)
        super().__init__(option_strings, dest, nargs="?", **kwargs)  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        raise BadInput(
            f"{parser.prog.removeprefix('portkit ')}: {'/'.join(self.option_strings)}: this command runs on "
            f"this host, not on a target (--target, --agent, --agent-arch and --timeout are for {AGENT_COMMANDS})"
        )


def refuse_foreign_options(args: argparse.Namespace, prog: str, mode: str, owners: Mapping[str, str]) -> None:
    """Refuses an option given to a mode of a command that does not take it
    (owners: an option's dest -> the mode that does), rather than letting the
    agent's own message through or ignoring it."""
    for dest, owner in owners.items():
        if owner != mode and getattr(args, dest) not in (None, False):
            raise BadInput(f"{prog}: --{dest.replace('_', '-')} is a {owner} option")


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high], as the agent accepts it."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        return value

    parse.__name__ = "whole number"
    return parse


def seconds(high: float, *, zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a number of seconds above 0 (or 0 itself, when zero
    means something) and at most high."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
        if not (0 < value <= high or (zero and value == 0)):
            low = "from 0" if zero else "above 0 and"
            raise argparse.ArgumentTypeError(f"{text} is not {low} up to {high:g} seconds")
        return value

    parse.__name__ = "seconds"
    return parse
