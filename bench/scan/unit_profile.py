"""Where one translation unit's scan spends its time, inside one process as
a worker runs it: `portkit scan`'s ScanJob for one entry of a compilation
database, scanned under cProfile, with the time of clang's parse (the same
flags, parsed alone) beside it for the ratio.

    .venv/bin/python bench/scan/unit_profile.py BUILD_DIR FILE_SUBSTRING [--top N] [--rounds N]

BUILD_DIR holds compile_commands.json; FILE_SUBSTRING picks the entry (the
first whose path ends with it). Prints the scan's and the parse's medians and
the functions with the most cumulative time in the last scan.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import os
import pstats
import statistics
import time
from pathlib import Path

from portkit.cli import build_parser
from portkit.commands.scan import engine
from portkit.commands.scan.command import _jobs
from portkit.commands.scan.engine import QUIET, ScanJob, _flags, scan_unit
from portkit.commands.scan.inputs import units
from portkit.commands.scan.models import probe_pair, resolve_abi
from portkit.commands.scan.rules import CHECKS, RULES
from portkit.cparse.options import given_flags
from portkit.cparse.parse import parse


def job_for(build: Path, wanted: str) -> ScanJob:
    """The ScanJob `portkit scan -p BUILD` makes for the entry named `wanted`."""
    args = build_parser(["scan"]).parse_args(["scan", "-p", str(build)])
    problems: list[str] = []
    found = units(args.inputs, args.compile_commands, given_flags(args), problems, [], every_reading=True)
    pair = probe_pair(resolve_abi(args.from_model, "--from"), resolve_abi(args.to_model, "--to"), args.sysroot)
    rules = frozenset(rule.id for rule in RULES)
    picked = [u for u in found if str(u.path).endswith(wanted)]
    if not picked:
        raise SystemExit(f"no entry of {build} ends with {wanted}")
    return _jobs(picked[:1], pair, rules, args.sysroot, problems, [])[0]


def parse_only(job: ScanJob) -> None:
    """clang's parse as the scan asks for it, without the walk and the rules."""
    warnings = sorted({option for c in CHECKS for option in c.diagnostics})
    flags = _flags(job.flags, job.pair.target.abi.triple) + list(QUIET) + warnings
    parse(str(job.path), job.pair.target.abi, flags, job.sysroot, job.text, bodies=True, build_machine=True)


class Phases:
    """CPU seconds (the process's: libclang runs in it) spent in the engine's
    steps, by wrapping them: the machine is shared, and CPU time is what the
    scan itself costs."""

    STEPS = ("parse", "own_declarations", "cwalk", "_scan", "_diagnostics")

    def __init__(self) -> None:
        self.seconds: dict[str, float] = dict.fromkeys(self.STEPS, 0.0)
        for step in self.STEPS:
            setattr(engine, step, self._timed(step, getattr(engine, step)))

    def _timed(self, step: str, function):
        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[step] += time.process_time() - start

        return timed

    def reset(self) -> None:
        self.seconds = dict.fromkeys(self.STEPS, 0.0)

    def by_check(self) -> None:
        """Each rule's handlers timed too, as `PK403 BINARY_OPERATOR`."""

        def timed(name: str, handler):
            self.STEPS = (*self.STEPS, name)
            return self._timed(name, handler)

        checks = []
        for check in engine.CHECKS:
            nodes = {kind: timed(f"{check.rule.id} {kind}", h) for kind, h in check.nodes.items()}
            diagnostics = {o: timed(f"{check.rule.id} {o}", h) for o, h in check.diagnostics.items()}
            conversions = check.conversions and timed(f"{check.rule.id} conversions", check.conversions)
            whole = check.whole and timed(f"{check.rule.id} whole", check.whole)
            applies = check.applies and timed(f"{check.rule.id} applies", check.applies)
            checks.append(
                dataclasses.replace(
                    check, nodes=nodes, diagnostics=diagnostics, conversions=conversions, whole=whole, applies=applies
                )
            )
        engine.CHECKS = checks
        self.reset()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sort", default="cumulative", help="cProfile order: cumulative, tottime, ...")
    parser.add_argument("--by-check", action="store_true", help="CPU seconds of each rule's handlers too")
    parser.add_argument("--callers", default="", help="also who calls the functions this names (a regex)")
    parser.add_argument(
        "--one-process", action="store_true", help="no child beside the worker for a large unit: every rule timed here"
    )
    args = parser.parse_args()
    if args.one_process:
        engine.SPLIT_NODES = engine.HOME_BESIDE_BYTES = 1 << 62
    os.environ["LIBCLANG_NOTHREADS"] = "1"  # as in a worker
    job = job_for(args.build, args.file)
    scans, parses, steps = [], [], []
    phases = Phases()
    if args.by_check:
        phases.by_check()
    for _ in range(args.rounds):  # alternating: the machine's load falls on both alike
        start = time.process_time()
        parse_only(job)
        parses.append(time.process_time() - start)
        phases.reset()
        start = time.process_time()
        found = scan_unit(job)
        scans.append(time.process_time() - start)
        steps.append(phases.seconds)
    scan, parsed = statistics.median(scans), statistics.median(parses)
    print(f"{job.path}: {len(found.findings)} findings")
    print(f"CPU s: scan_unit {scan:.2f}, parse alone {parsed:.2f}, ratio {scan / parsed:.2f}", end="")
    print(f" (medians of {args.rounds})")
    for step in phases.STEPS:  # _scan holds cwalk and the rules' handlers; parse counts the home parse too
        seconds = statistics.median(s[step] for s in steps)
        if seconds >= 0.005:
            print(f"  {step:34} {seconds:6.2f}")
    if not args.top:
        return
    profile = cProfile.Profile()
    profile.enable()
    scan_unit(job)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
    if args.callers:
        pstats.Stats(profile, stream=out).sort_stats(args.sort).print_callers(args.callers)
    print(out.getvalue())


if __name__ == "__main__":
    main()
