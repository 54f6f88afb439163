"""`portkit report`: one answer to "is this port ready?", for people and for CI.

It gathers results into a verdict per area (code, data layouts, image,
kernel, target, latency) and overall: ready, not ready or not measured,
with the few problems that decide it and what to do about each, the details
after them. Results come from files saved earlier (any portkit --format json
document, portkit's SARIF, a latency study or rt import's directory,
cyclictest or rtla output), or from running the commands here on the inputs
given (--source, --headers, --rootfs, --kconfig, --target). An area with
nothing given says what to run to fill it.

Findings decide by --fail-on, as in the commands themselves; a latency cell
is not ready when its max is above --max-latency-us (per load: LOAD=US), or
above its own interval when no limit is given (a wake-up that late misses
the next period). Emulated timings are shown, never judged.

exit status: 0 ready; 1 not ready, or not measured (nothing measured, an
area --require names without results, emulated timings, no limit); 2 an
input refused (one error line each; the report of the rest is written);
3 not measured only because this environment could not measure what was
given (an agent or emulator missing, a target out of reach)."""

from __future__ import annotations

import argparse
import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path

from portkit import __version__
from portkit.commands.report import html, junit, markdown, text
from portkit.commands.report.baseline import compare, read_baseline
from portkit.commands.report.inputs import read_saved
from portkit.commands.report.judge import exit_status, judge_areas, overall
from portkit.commands.report.model import AREA_KEYS, SCHEMA, Settings, Source
from portkit.commands.report.running import run_command, shown
from portkit.core.abis import DEFAULT_ABIS, parse_abi
from portkit.core.command import add_command
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.output import check_writable, deliver, emit, error, write_atomically
from portkit.core.progress import StatusLine
from portkit.core.target import emulated
from portkit.core.targets import parse_target
from portkit.findings.report import FAIL_ON

FORMATS = ("text", "json", "html", "markdown", "junit")
SUFFIXES = {".html": "html", ".htm": "html", ".md": "markdown", ".json": "json", ".xml": "junit"}
EXTRA_OUTPUTS = (
    ("html", "--html", "HTML report"),
    ("markdown", "--markdown", "Markdown summary"),
    ("json", "--json", "JSON report"),
    ("junit", "--junit", "JUnit XML"),
)
SUMMARY = "is this port ready? every area's verdict from saved results or checks run here"
EXAMPLES = (
    "examples:\n"
    "  portkit report --source src/ --headers include/ --rootfs image.tar --kconfig .config\n"
    "      run scan, layout and the audits here, and judge them\n"
    "  portkit report scan.json rootfs.sarif kconfig.json study/   saved results\n"
    "  portkit report study/ --max-latency-us 100 --max-latency-us spawn=250\n"
    "  portkit report --target ssh:root@board --cpu-has crc32,pmull   the board\n"
    "  portkit report scan.json study/ --html report.html --markdown comment.md \\\n"
    "      --junit junit.xml --json report.json     every format in one run, for CI\n"
    "  portkit report scan.json --baseline report.json   what is new, fixed, worse"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "report", SUMMARY, __doc__, EXAMPLES, run, runs_on="agent", formats=FORMATS)
    parser.add_argument(
        "results",
        nargs="*",
        type=Path,
        metavar="RESULT",
        help="saved results: portkit --format json or SARIF files, a latency study or rt import's directory, "
        "cyclictest or rtla output",
    )
    group = parser.add_argument_group("inputs to check here")
    group.add_argument(
        "--source",
        action="append",
        type=Path,
        default=[],
        metavar="FILE_OR_DIR",
        help="C and C++ sources: portkit scan (repeat)",
    )
    group.add_argument(
        "-p",
        dest="build_dir",
        type=Path,
        metavar="BUILD_DIR",
        help="scan every file of BUILD_DIR/compile_commands.json",
    )
    group.add_argument(
        "--headers",
        action="append",
        type=Path,
        default=[],
        metavar="FILE_OR_DIR",
        help="headers whose layout crosses a file, the network or a process boundary: portkit layout (repeat)",
    )
    group.add_argument(
        "--from",
        dest="from_abi",
        default=DEFAULT_ABIS[0],
        type=_abi,
        metavar="ABI",
        help=f"the ABI the code works on today (default {DEFAULT_ABIS[0]})",
    )
    group.add_argument(
        "--to",
        dest="to_abi",
        default=DEFAULT_ABIS[1],
        type=_abi,
        metavar="ABI",
        help=f"the ABI it moves to (default {DEFAULT_ABIS[1]})",
    )
    group.add_argument(
        "--rootfs",
        type=Path,
        metavar="DIR_OR_ARCHIVE",
        help="a root filesystem or its tar archive: portkit audit rootfs",
    )
    group.add_argument(
        "--kconfig",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="a kernel config: portkit audit kconfig (repeat); the first is also the kernel --rootfs is checked "
        "against",
    )
    group.add_argument(
        "--cpu-has", metavar="NAME[,NAME...]", help="CPU features the code needs (with --target: portkit cpu --has)"
    )
    group = parser.add_argument_group("verdicts")
    group.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="warning",
        help="an area with a finding at least this severe is not ready (default: warning)",
    )
    group.add_argument(
        "--max-latency-us",
        type=_limits,
        action="append",
        default=[],
        metavar="[LOAD=]US[,...]",
        help="the worst wake-up latency allowed, for every load or one load or cell (repeat; default: each "
        "cell's interval)",
    )
    group.add_argument(
        "--noise",
        type=_percent,
        default=20.0,
        metavar="PERCENT",
        help="with --baseline, latency changes within this much (and within the spread between CPUs) are noise "
        "(default 20)",
    )
    group.add_argument(
        "--require",
        type=_areas,
        default=(),
        metavar="AREA[,AREA...]",
        help=f"areas that must be measured ({', '.join(AREA_KEYS)})",
    )
    group.add_argument(
        "--baseline",
        type=read_baseline,
        metavar="OLD.json",
        help="an earlier report (--format json): mark what is new, fixed, better or worse",
    )
    group = parser.add_argument_group("more outputs in the same run")
    for fmt, option, what in EXTRA_OUTPUTS:
        group.add_argument(option, dest=f"{fmt}_file", type=Path, metavar="FILE", help=f"write the {what} to FILE")
    formats = parser._option_string_actions["--format"]
    formats.default = None  # -o FILE's extension names it, else text
    formats.help = f"{' or '.join(FORMATS)} (default: what -o FILE's extension names, .html .md .json .xml; else text)"
    target = parser._option_string_actions["--target"]
    target.default = None
    target.help = "also check a target: local, qemu-ARCH[:CPU], ssh:[USER@]HOST[:PORT] (cpu, vdso verify, rt sysinfo)"
    parser.set_defaults(target=None)


def _abi(text: str) -> str:
    parse_abi(text)  # one line naming the ABIs when it is none of them
    return text


def _limits(text: str) -> dict[str, float]:
    limits: dict[str, float] = {}
    for part in text.split(","):
        name, _, value = part.strip().rpartition("=")
        try:
            number = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not US or LOAD=US (microseconds)") from None
        if not 0 < number < 1e9:
            raise argparse.ArgumentTypeError(f"{part!r}: the limit must be above 0 us")
        limits[name.strip() or "*"] = number
    return limits


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage") from None
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"{text!r} is not from 0 to 1000")
    return value


def _areas(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in AREA_KEYS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{text!r}: the areas are {', '.join(AREA_KEYS)}")
    return names


def run(args: argparse.Namespace) -> int:
    if args.format is None:
        suffix = args.output.suffix.lower() if args.output is not None else ""
        args.format = SUFFIXES.get(suffix, "text")
    outputs = _outputs(args)
    commands = _commands(args)
    if not args.results and not commands:
        raise BadInput(
            "report: nothing to report on: give saved results (RESULT...) or inputs to check here "
            "(--source, -p, --headers, --rootfs, --kconfig, --target) (see --help)"
        )
    limits: dict[str, float] = {}
    for given in args.max_latency_us:
        limits.update(given)
    settings = Settings(args.fail_on, limits, args.noise, tuple(args.require))
    sources, problems = _read_results(args.results)
    refused = len(problems)
    ran, failed = _run_commands(commands, quiet=args.quiet)
    sources += ran
    problems += failed
    areas = judge_areas(sources, settings)
    if args.baseline is not None:
        compare(areas, args.baseline, settings.noise_percent)
    verdict, summary = overall(areas, settings)
    code = exit_status(verdict, areas, sources, refused, settings)
    document = {
        "schema": SCHEMA,
        "portkit": __version__,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "verdict": verdict,
        "summary": summary,
        "exit_status": int(code),
        "settings": settings.to_json(),
        "baseline": _baseline_json(args.baseline),
        "problems": problems,
        "areas": areas,
    }
    _write(args, document, sources, outputs)
    return code


def _read_results(paths: list[Path]) -> tuple[list[Source], list[str]]:
    """The saved results, and one error line per operand refused (the rest are read)."""
    sources: list[Source] = []
    refused: list[str] = []
    for path in paths:
        try:
            sources += read_saved(path)
        except BadInput as err:
            error(str(err))
            refused.append(str(err))
    return sources, refused


def _run_commands(commands: list[tuple[str, list[str]]], *, quiet: bool) -> tuple[list[Source], list[str]]:
    """Each command's document, and one line per command that gave none. A
    target whose agent cannot start is said once: its other commands are not tried."""
    sources: list[Source] = []
    failed: list[str] = []
    unreachable: str | None = None
    with StatusLine(quiet=quiet) as status:
        for number, (area, argv) in enumerate(commands, 1):
            on_target = "--target" in argv
            if on_target and unreachable is not None:
                sources.append(Source(area, shown(argv), "run", error=unreachable, environment=True))
                continue
            status.show(f"report: {shown(argv)} ({number} of {len(commands)})", now=True)
            source = run_command(area, argv, quiet=quiet)
            sources.append(source)
            if source.error:
                failed.append(source.error)
                if on_target and source.environment:
                    unreachable = source.error
    return sources, failed


def _outputs(args: argparse.Namespace) -> list[tuple[str, Path, str]]:
    """(format, file, option) of every file to write, checked before the work."""
    files = [
        (fmt, getattr(args, f"{fmt}_file"), option) for fmt, option, _ in EXTRA_OUTPUTS if getattr(args, f"{fmt}_file")
    ]
    if args.output is not None:
        files.insert(0, (args.format, args.output, "-o"))
    seen: dict[Path, str] = {}
    for _, path, option in files:
        check_writable(path, option)
        key = path.resolve()
        if key in seen:
            raise BadInput(f"{option} {path}: {seen[key]} writes there too")
        seen[key] = option
    return files


def _commands(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """(area, argv) of each command to run here, in the order they run."""
    commands: list[tuple[str, list[str]]] = []
    models = ["--from", args.from_abi, "--to", args.to_abi]
    if args.source or args.build_dir:
        build = ["-p", str(args.build_dir)] if args.build_dir else []
        commands.append(("code", ["scan", *map(str, args.source), *build, *models]))
    if args.headers:
        commands.append(("layouts", ["layout", *map(str, args.headers), "--abi", args.from_abi, "--abi", args.to_abi]))
    if args.rootfs:
        kernel = ["--kconfig", str(args.kconfig[0])] if args.kconfig else []
        commands.append(("image", ["audit", "rootfs", str(args.rootfs), *kernel]))
    for config in args.kconfig:
        commands.append(("kernel", ["audit", "kconfig", str(config)]))
    if args.target is None:
        if args.cpu_has or args.agent or args.timeout is not None:
            raise BadInput("report: --cpu-has, --agent and --timeout are for --target (the board to check)")
        return commands
    # A spec that names no target is a mistake, refused once; an emulator or agent missing is the
    # environment: the first command on the target says so, and the area is not measured.
    with contextlib.suppress(EnvironmentProblem):
        parse_target(args.target, args.agent)
    on_target = ["--target", args.target]
    on_target += ["--agent", str(args.agent)] if args.agent else []
    on_target += ["--timeout", f"{args.timeout:g}"] if args.timeout is not None else []
    if not args.kconfig and not emulated(args.target):  # an emulated target's kernel is this host's
        commands.append(("kernel", ["audit", "kconfig", *on_target]))
    commands.append(("target", ["cpu", *on_target, *(["--has", args.cpu_has] if args.cpu_has else [])]))
    if not emulated(args.target):  # qemu-user provides no vDSO: nothing to verify, nothing about a board
        commands.append(("target", ["vdso", "verify", *on_target]))
    commands.append(("target", ["rt", "sysinfo", *on_target]))
    return commands


def _baseline_json(baseline: object) -> dict | None:
    if baseline is None:
        return None
    document = baseline.document  # type: ignore[attr-defined]
    return {"path": baseline.path, "created": document.get("created"), "verdict": document.get("verdict")}  # type: ignore[attr-defined]


def _write(
    args: argparse.Namespace, document: dict, sources: list[Source], outputs: list[tuple[str, Path, str]]
) -> None:
    """Every file asked for, then the main output (stdout unless -o), which in text names the files."""
    plots = (
        _plots(sources, document)
        if any(fmt == "html" for fmt, _, _ in outputs) or args.format == "html"
        else ([], None)
    )
    written = []
    for fmt, path, option in outputs:
        if option == "-o":
            continue
        write_atomically(path, _rendered(fmt, document, plots), option)
        written.append((str(path), dict((f, w) for f, _, w in EXTRA_OUTPUTS)[fmt]))
    if args.format in ("text", "json"):
        emit(args.format, document, lambda d: text.render(d, written), args.output)
    else:
        deliver(_rendered(args.format, document, plots), args.output)


def _rendered(fmt: str, document: dict, plots: tuple[list, str | None]) -> str:
    if fmt == "html":
        return html.render(document, *plots)
    if fmt == "markdown":
        return markdown.render(document)
    if fmt == "junit":
        return junit.render(document)
    if fmt == "json":
        return json.dumps(document, indent=2) + "\n"
    from portkit.core.output import render_text

    return render_text(text.render(document))


def _plots(sources: list[Source], document: dict) -> tuple[list, str | None]:
    latency = [(s.label, s.document) for s in sources if s.area == "latency"]
    cells = next(a for a in document["areas"] if a["area"] == "latency").get("cells") or []
    if not cells:
        return [], None
    from portkit.commands.report.plots import draw

    return draw(latency, cells)
