"""`portkit rt run`: the options checked, the study measured with its
progress on one status line, then its table. What the user should know
beside the table goes to stderr: nothing new was measured, a --timerlat that
could not run, a --timeout that ended the study."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

from portkit.commands.rt import table
from portkit.commands.rt.results import read_results
from portkit.commands.rt.study import LOADS, Measure, Study, cells_of, load_options
from portkit.commands.rt.summary import row
from portkit.core.command import add_command, add_output_directory, seconds, whole
from portkit.core.errors import BadInput, EnvironmentProblem, Exit
from portkit.core.output import count, emit, output_directory, warn
from portkit.core.progress import StatusLine
from portkit.core.targets import parse_target

DEFAULT_LOOPS = 100_000  # the field report's -l100000
DEFAULT_INTERVALS = "1000"
MAX_DURATION = 7 * 24 * 3600  # seconds per cell: a week
TIMEOUT_HELP = (
    "end the whole study after S seconds: the cell under way stops early and is kept as interrupted, "
    "the table shows what was measured, exit 3; the same command then goes on (default and 0: no limit)"
)


def register(modes: argparse._SubParsersAction) -> None:
    examples = (
        "examples:\n"
        "  portkit rt run --loads idle,cpu,io,net,spawn,all --intervals 100,1000 --loops 100000 -o study/\n"
        "  portkit rt run --loads idle,cpu --duration 5 -o quick/            seconds, not minutes\n"
        "  portkit rt run --loads idle,cmd --cmd 'stress-ng --vm 2' -o vm/   any command as the load\n"
        "  portkit rt run --target qemu-aarch64 --loads idle --duration 2 -o emu/   plumbing only\n"
        "  portkit rt run --loads idle,cpu --duration 5 -o quick/ --restart   measure it all again"
    )
    parser = add_command(
        modes,
        "run",
        "measure a study of loads x intervals on the target",
        None,
        examples,
        run_study,
        runs_on="agent",
        output_file=False,
    )
    add_output_directory(parser, "the study's directory (resumed when it exists)")
    parser.add_argument(
        "--loads", default="idle,cpu", metavar="LIST", help=f"idle, all, cmd or {', '.join(LOADS)} (default idle,cpu)"
    )
    parser.add_argument(
        "--intervals",
        default=DEFAULT_INTERVALS,
        metavar="US,...",
        help=f"wake-up intervals in us (default {DEFAULT_INTERVALS})",
    )
    parser.add_argument(
        "--loops",
        type=whole(1, 10**10),
        metavar="N",
        help=f"loops per cell (default {DEFAULT_LOOPS} unless --duration)",
    )
    parser.add_argument(
        "--duration",
        type=seconds(MAX_DURATION),
        metavar="S",
        help="seconds per cell (with --loops: whichever ends first)",
    )
    parser.add_argument("--policy", choices=("fifo", "rr"), default="fifo", help="the real-time policy (default fifo)")
    parser.add_argument("--priority", type=whole(1, 99), default=80, metavar="P", help="its priority (default 80)")
    parser.add_argument("--cpus", metavar="LIST", help="CPUs to measure on, one thread each (default all)")
    parser.add_argument(
        "--no-rt", action="store_true", help="measure under SCHED_OTHER, memory not locked (labelled so)"
    )
    parser.add_argument(
        "--break",
        dest="break_us",
        type=whole(0, 10**9),
        metavar="US",
        help="stop a cell at its first latency of US or more, its kernel trace saved beside it",
    )
    parser.add_argument(
        "--timerlat",
        action="store_true",
        help="after each cell's measurement, as long again: the kernel's timerlat tracer (IRQ vs thread latency)",
    )
    parser.add_argument(
        "--load-options",
        action="append",
        default=[],
        metavar="KIND=OPTIONS",
        help="a load's own options, e.g. 'cpu=--duty 80' or 'net=--proto tcp' (portkit-target load KIND --help)",
    )
    parser.add_argument("--cmd", metavar="COMMAND", help="the shell command the load `cmd` runs")
    parser.add_argument(
        "--restart",
        action="store_true",
        help="measure every cell again, discarding the directory's earlier cells and their plots "
        "(once this run's first cell is measured)",
    )
    # One agent call's limit elsewhere; here the whole study's, which is what a long run needs.
    parser._option_string_actions["--timeout"].help = TIMEOUT_HELP


def run_study(args: argparse.Namespace) -> int:
    study = _study(args)
    fresh = not args.directory.exists()
    output_directory(args.directory)
    try:
        with StatusLine(quiet=args.quiet) as status, study.target:
            study.status = status
            study.run()
    except EnvironmentProblem as err:
        if not study.measured:
            raise
        # A board lost mid-study: the cells measured before it are on disk.
        raise EnvironmentProblem(
            f"{err}; the {count(len(study.measured), 'cell')} measured before are kept in {args.directory} "
            "(the same command goes on where it stopped)",
            hint=err.hint,
        ) from None
    except KeyboardInterrupt:
        where = f"the cells measured so far are in {args.directory}" if study.measured or not fresh else ""
        print(f"portkit: interrupted; {where or 'nothing was measured'}", file=sys.stderr)
        return 130
    finally:
        if fresh and not study.measured:
            with contextlib.suppress(OSError):  # made for this run, and nothing came of it
                args.directory.rmdir()
    _tell(study, args.directory)
    complete = sum(study.done(cell) for cell in study.cells)
    if study.out_of_time and not study.measured and not complete:
        raise EnvironmentProblem(f"rt run: --timeout {args.timeout:g} s ended the study before any cell was measured")
    results = read_results(args.directory)
    rows = [row(name, cell) for name, cell in results.cells]
    heading, notes = results.heading(), table.notes(results.cells)
    emit(
        args.format,
        table.document(rows, heading, results.emulated, notes),
        lambda _: table.text(rows, heading, notes),
        None,
    )
    if study.out_of_time:
        raise EnvironmentProblem(
            f"rt run: --timeout {args.timeout:g} s ended the study with {count(complete, 'cell')} of "
            f"{len(study.cells)} complete; the same command goes on where it stopped"
        )
    return Exit.OK


def _study(args: argparse.Namespace) -> Study:
    """The study the options describe, every option checked before anything starts."""
    intervals = _intervals(args.intervals)
    loads = [x.strip() for x in args.loads.split(",") if x.strip()]
    loops = args.loops if args.loops or args.duration else DEFAULT_LOOPS
    policy = "other" if args.no_rt else args.policy
    measure = Measure(
        intervals[0], loops, args.duration, policy, args.priority, args.cpus, args.break_us, args.timerlat
    )
    cells = cells_of(loads, intervals, args.cmd)
    options = load_options(args.load_options)
    target = parse_target(args.target, args.agent, args.agent_arch)
    deadline = time.monotonic() + args.timeout if args.timeout else None
    return Study(args.directory, target, cells, measure, options, restart=args.restart, deadline=deadline)


def _intervals(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise BadInput(f"--intervals {text}: whole numbers of microseconds, comma-separated") from None
    if not values or any(not 1 <= v <= 10_000_000 for v in values):
        raise BadInput(f"--intervals {text}: each from 1 us to 10 s")
    return list(dict.fromkeys(values))


def _tell(study: Study, directory: Path) -> None:
    """What the table alone would not say."""
    if not study.measured and not study.out_of_time:
        every = "the 1 cell was" if len(study.cells) == 1 else f"all {len(study.cells)} cells were"
        warn(f"nothing new was measured: {every} complete already in {directory} (--restart measures again)")
    for note in table.notes(list(study.measured.items())):
        warn(note)
