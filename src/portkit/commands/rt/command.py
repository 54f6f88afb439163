"""`portkit rt`: wake-up and interrupt latency under load, on the target, as a
study (the PREEMPT_RT-on-Loongson field report; the IVI team's interrupt
latency idle vs stressed): measure the matrix of loads x intervals, tabulate
it as the field report's Table 2 with percentiles and the load each cell
really had, plot it, compare studies, and import existing cyclictest or rtla
results into the same model.

  run      measure a study on --target into DIR (resumable)
  sysinfo  the target's facts that decide latency, with warnings
  table    a study's table: text, markdown, csv, json
  plot     histograms, latency per loop, box plots (PNG and SVG)
  compare  studies side by side, each against the first
  import   cyclictest (-h, --json, -v) and rtla timerlat hist output into results
"""

from __future__ import annotations

import argparse
from pathlib import Path

from portkit.commands.rt import compare, table
from portkit.commands.rt.importing import import_results
from portkit.commands.rt.results import read_results
from portkit.commands.rt.run import DEFAULT_LOOPS, TIMEOUT_HELP, run_study
from portkit.commands.rt.study import LOADS, SCHEMA_SYSINFO
from portkit.commands.rt.summary import row
from portkit.commands.rt.sysinfo import render as render_sysinfo
from portkit.core.command import add_command, add_modes, whole
from portkit.core.errors import BadInput, Exit
from portkit.core.output import deliver, emit, output_directory, warn
from portkit.core.target import AgentCall, run_agent

SUMMARY = "wake-up and interrupt latency under load: measure, tabulate, plot, compare"
DEFAULT_INTERVALS = "1000"
PICTURES = (".png", ".svg", ".pdf", ".jpg", ".jpeg")
IMPORT_EXAMPLES = (
    "examples:\n"
    "  portkit rt import cyclictest-h.txt run.json -o imported/\n"
    "  portkit rt import timerlat.txt --as rtla-timerlat-hist -o imported/"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    examples = (
        "examples:\n"
        "  portkit rt run --loads idle,cpu,io --intervals 1000 --duration 10 -o study/\n"
        "  portkit rt table study/ --format markdown\n"
        "  portkit rt plot study/"
    )
    modes = add_modes(subparsers, "rt", SUMMARY, __doc__, examples)
    _run_mode(modes)
    _sysinfo_mode(modes)
    _table_mode(modes)
    _plot_mode(modes)
    _compare_mode(modes)
    _import_mode(modes)


def _run_mode(modes: argparse._SubParsersAction) -> None:
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
    _add_directory(parser, "the study's directory (resumed when it exists)")
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
        "--duration", type=float, metavar="S", help="seconds per cell (with --loops: whichever ends first)"
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


def _sysinfo_mode(modes: argparse._SubParsersAction) -> None:
    add_command(
        modes,
        "sysinfo",
        "the target's facts that decide latency",
        None,
        "examples:\n  portkit rt sysinfo\n  portkit rt sysinfo --target ssh:root@board\n"
        "  portkit rt sysinfo --target vm:linux-image-rt-amd64   Debian's PREEMPT_RT kernel, booted in a VM",
        sysinfo,
        runs_on="agent",
    )


def _table_mode(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "table",
        "a study's table (the field report's Table 2, and more)",
        None,
        "examples:\n  portkit rt table study/\n  portkit rt table study/ --format markdown -o table.md",
        show_table,
        runs_on="host",
        formats=("text", "markdown", "csv", "json"),
    )
    parser.add_argument("results", type=Path, metavar="DIR_OR_FILE")


def _plot_mode(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "plot",
        "histograms, latency per loop and box plots as PNG and SVG",
        None,
        "examples:\n  portkit rt plot study/                 into study/plots/\n  portkit rt plot study/ --to figures/",
        make_plots,
        runs_on="host",
        formats=("text", "json"),
    )
    parser.add_argument("results", type=Path, metavar="DIR_OR_FILE")
    parser.add_argument("--to", type=Path, metavar="DIR", help="where the pictures go (default DIR/plots)")


def _compare_mode(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "compare",
        "studies side by side, each against the first",
        None,
        "examples:\n  portkit rt compare aarch32/ aarch64/\n  portkit rt compare idle.json stressed.json",
        compare_results,
        runs_on="host",
    )
    parser.add_argument(
        "results", nargs="+", type=Path, metavar="DIR_OR_FILE", help="two or more studies, result directories or files"
    )


def _import_mode(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "import",
        "cyclictest or rtla output into portkit results",
        None,
        IMPORT_EXAMPLES,
        import_results,
        runs_on="host",
        output_file=False,
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--as", dest="forced", metavar="FORMAT", help="the input's format when it cannot be told from its content"
    )
    _add_directory(
        parser,
        "where the results go: one JSON per run, named after its file (board1-cyclictest.json when two share "
        "a name); an earlier import of another file is never replaced",
    )


def _add_directory(parser: argparse.ArgumentParser, meaning: str) -> None:
    """-o DIR of the modes that write a directory, not a file."""
    parser.add_argument("-o", "--output", dest="directory", type=Path, required=True, metavar="DIR", help=meaning)


# ------------------------------------------------------------------ modes


def sysinfo(args: argparse.Namespace) -> int:
    result = run_agent(args, AgentCall(("rt", "sysinfo"), SCHEMA_SYSINFO))
    emit(args.format, result.document, render_sysinfo, args.output)
    return result.exit_code


def show_table(args: argparse.Namespace) -> int:
    results = read_results(args.results)
    rows = [row(name, cell) for name, cell in results.cells]
    heading, notes = results.heading(), table.notes(results.cells)
    if args.format == "markdown":
        deliver(table.markdown(rows, heading, notes), args.output)
    elif args.format == "csv":
        deliver(table.csv_text(rows), args.output)
    else:
        emit(
            args.format,
            table.document(rows, heading, results.emulated, notes),
            lambda _: table.text(rows, heading, notes),
            args.output,
        )
    return Exit.OK


def make_plots(args: argparse.Namespace) -> int:
    if args.output is not None and args.output.suffix.lower() in PICTURES:
        raise BadInput(
            f"-o {args.output}: -o writes the list of the pictures (text or JSON), not a picture; "
            "the pictures go into --to DIR (default DIR/plots)"
        )
    from portkit.commands.rt.plot import plot

    results = read_results(args.results)
    directory = args.to or (args.results / "plots" if args.results.is_dir() else args.results.parent / "plots")
    fresh = not directory.exists()
    output_directory(directory, "--to")
    title = results.title + (" (EMULATED: timings mean nothing)" if results.emulated else "")
    files = plot(results.cells, directory, title)
    document = {"schema": "portkit.rt-plots/1", "files": [str(f) for f in files]}
    if not files:
        if fresh:
            directory.rmdir()  # made for pictures that did not come
        warn(
            f"nothing to plot: {args.results} holds no histogram and no latency per loop "
            "(a cyclictest -q summary keeps neither)"
        )
    emit(args.format, document, lambda d: d["files"], args.output)
    return Exit.OK


def compare_results(args: argparse.Namespace) -> int:
    sides = []
    for path in args.results:
        results = read_results(path)
        label = results.label + (" (emulated)" if results.emulated else "")
        sides.append(compare.Side(label, {name: row(name, cell) for name, cell in results.cells}))
    if len(sides) == 1:
        raise BadInput(
            f"rt compare: {args.results[0]}: one result alone; give two or more to compare "
            f"(`portkit rt table {args.results[0]}` shows one)"
        )
    emit(args.format, compare.document(sides), compare.text, args.output)
    return Exit.OK
