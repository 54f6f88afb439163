"""A latency study: the matrix of loads x intervals, measured on the target
cell by cell, each cell one file in the study's directory, so an interrupted
study keeps every finished cell and `portkit rt run` on the same directory
goes on where it stopped.

A cell starts its loads on the target (`portkit-target load KIND`, one agent
process each), lets them settle, measures (`portkit-target rt`), then asks the
loads to end and keeps what they achieved beside the measurement.
"""

from __future__ import annotations

import json
import shlex
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from portkit.commands.rt import study_file
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.output import write_atomically
from portkit.core.progress import StatusLine, duration
from portkit.core.target import START_SECONDS, AgentCall, Running, Target

SCHEMA_RT = "portkit.rt/1"
SCHEMA_LOAD = "portkit.load/1"
SCHEMA_SYSINFO = "portkit.rt-sysinfo/1"
LOADS = ("cpu", "io", "net", "spawn", "mem", "msg")
ALL = ("cpu", "io", "net", "spawn")  # "all": what a busy board does at once
SETTLE_SECONDS = 1.0  # a load reaches its pace before the measurement starts
SLACK = 3.0  # a measurement may take this much longer than its loops (scheduling, missed periods)


@dataclass(frozen=True)
class Measure:
    """What every cell measures with: the rt agent's options."""

    interval_us: int
    loops: int | None
    duration_s: float | None
    policy: str  # fifo, rr, or other (--no-rt: no real-time priority, no locked memory)
    priority: int
    cpus: str | None
    break_us: int | None
    timerlat: bool = False

    def seconds(self) -> float:
        """How long a cell's measurement should take (timerlat runs as long again after it)."""
        by_loops = self.loops * self.interval_us / 1e6 if self.loops else None
        once = min(x for x in (by_loops, self.duration_s) if x is not None)
        return once * (2 if self.timerlat else 1)

    def agent_args(self, trace_file: Path | None = None) -> list[str]:
        args = ["rt", "--interval", str(self.interval_us), "--progress"]
        if self.policy == "other":
            args.append("--no-rt")
        else:
            args += ["--policy", self.policy, "--priority", str(self.priority)]
        if self.loops:
            args += ["--loops", str(self.loops)]
        if self.duration_s:
            args += ["--duration", f"{self.duration_s:g}"]
        if self.cpus:
            args += ["--cpus", self.cpus]
        if self.break_us is not None:
            args += ["--break", str(self.break_us)]
            if trace_file is not None:
                args += ["--trace-file", str(trace_file)]
        if self.timerlat:
            args.append("--timerlat")
        return args


@dataclass(frozen=True)
class Cell:
    load: str  # "idle", a load kind, "all", or "cmd"
    interval_us: int
    command: str | None = None  # the shell command of a `cmd` load

    @property
    def name(self) -> str:
        return f"{self.load}-{self.interval_us}us"

    def kinds(self) -> tuple[str, ...]:
        if self.load == "idle":
            return ()
        return ALL if self.load == "all" else (self.load,)


@dataclass
class Study:
    """Measures the cells not yet done. Nothing is written before the first
    cell's measurement has come back: a run the target refuses (a CPU it does
    not have, a load option it does not know, no permission) leaves the
    directory as it was. --restart discards the earlier cells only then."""

    directory: Path
    target: Target
    cells: list[Cell]
    measure: Measure
    load_options: dict[str, str] = field(default_factory=dict)  # a kind's own agent options, as typed
    restart: bool = False  # measure every cell again, discarding the earlier ones
    deadline: float | None = None  # time.monotonic() at which --timeout ends the study
    status: StatusLine = field(default_factory=lambda: StatusLine(quiet=True))
    measured: dict[str, dict] = field(default_factory=dict)  # the cells measured in this run, by name
    out_of_time: bool = False  # --timeout ended the study

    def cell_path(self, cell: Cell) -> Path:
        return self.directory / study_file.CELLS / f"{cell.name}.json"

    def done(self, cell: Cell) -> bool:
        """A cell on disk that finished (an interrupted one is measured again)."""
        try:
            document = json.loads(self.cell_path(cell).read_text())
        except (OSError, ValueError):
            return False
        return document.get("rt", {}).get("stopped") in ("completed", "break")

    def pending(self) -> list[Cell]:
        """The cells this run measures."""
        return list(self.cells) if self.restart else [c for c in self.cells if not self.done(c)]

    def run(self) -> None:
        """Measures the pending cells, in order; raises KeyboardInterrupt
        after keeping a cell the user stopped."""
        description = self._description()
        pending = self.pending()
        if not pending:
            return
        if not description.get("sysinfo"):
            self.status.show("reading the target's facts (rt sysinfo)", now=True)
            sysinfo = AgentCall(("rt", "sysinfo"), SCHEMA_SYSINFO)
            description["sysinfo"] = self.target.run(sysinfo, self.status).document
        for index, cell in enumerate(pending):
            if self._past_deadline():
                break
            document = self._measure(cell, Progress(index, pending, self.measure))
            if not self.measured:
                self._begin(description, document)
            write_atomically(self.cell_path(cell), json.dumps(document, indent=1) + "\n")
            self.measured[cell.name] = document
            if self.out_of_time:
                break
            if document["rt"].get("stopped") == "interrupted":
                raise KeyboardInterrupt  # the user stopped it: what was measured is kept

    def _description(self) -> dict:
        """What study.json will say; the earlier study's options must be these
        (unless --restart), its cells and target facts are kept."""
        description = self.describe()
        if self.restart:
            return description
        earlier = study_file.read(self.directory)
        if earlier is None:
            return description
        found = study_file.differences(earlier, description)
        if found:
            raise study_file.refusal(self.directory, found)
        description["sysinfo"] = earlier.get("sysinfo")
        description["cells"] = list(dict.fromkeys(earlier.get("cells", []) + description["cells"]))
        return description

    def _begin(self, description: dict, first: dict) -> None:
        """The first write of this run: the earlier cells go (--restart), study.json is (re)written."""
        (self.directory / study_file.CELLS).mkdir(exist_ok=True)
        if self.restart:
            trace = (first["rt"].get("break") or {}).get("trace_file")  # the first cell's own, just saved
            study_file.discard(self.directory, keep=Path(trace) if trace else None)
        study_file.write(self.directory, description)

    def _past_deadline(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.out_of_time = True
        return self.out_of_time

    def describe(self) -> dict:
        m = self.measure
        return {
            "schema": study_file.SCHEMA_STUDY,
            "target": self.target.spec,
            # What every cell is measured with: a study resumed with other
            # loads or intervals grows, with other options it is refused.
            "measure": {
                "loops": m.loops,
                "duration_s": m.duration_s,
                "policy": m.policy,
                "priority": None if m.policy == "other" else m.priority,
                "cpus": m.cpus,
                "break_us": m.break_us,
                "timerlat": m.timerlat,
                "load_options": dict(sorted(self.load_options.items())),
            },
            "cells": [c.name for c in self.cells],
        }

    def _measure(self, cell: Cell, progress: Progress) -> dict:
        measure = replace(self.measure, interval_us=cell.interval_us)
        seconds = measure.seconds()
        loads = [self._start_load(kind, cell, seconds) for kind in cell.kinds()]
        try:
            if loads:
                self.status.show(progress.text("starting the load"), now=True)
                time.sleep(SETTLE_SECONDS)
                for kind, load in zip(cell.kinds(), loads, strict=True):
                    if load.proc.poll() is not None:  # it ended already: refused (one line), or a short cmd
                        self._refused(kind, load, cell)
            rt = self._measure_latency(cell, measure, seconds, progress)
        except BaseException:
            for load in loads:
                load.stop()
            raise
        achieved = []
        for load in loads:
            load.finish()
            achieved.append(load.wait().document)
        return {
            "cell": {"load": cell.load, "interval_us": cell.interval_us, "command": cell.command},
            "target": self.target.spec,
            "rt": rt,
            "loads": achieved,
        }

    def _refused(self, kind: str, load: Running, cell: Cell) -> None:
        """A load that ended before the measurement: if the agent refused it,
        or cmd's command failed at once, why, said of the option that caused it."""
        try:
            load.wait()
        except BadInput as err:
            reason = str(err).removesuffix(" (try --help)")
            given = f"--load-options '{kind}={self.load_options[kind]}'" if kind in self.load_options else "--loads"
            raise BadInput(
                f"{given}: the {kind} load refused it: {reason} (portkit-target load {kind} --help lists its options)"
            ) from None
        except EnvironmentProblem as err:
            if kind != "cmd":
                raise
            reason = str(err).removeprefix("cmd: ")
            hint = " (127: the shell found no such command)" if reason.endswith("status 127") else ""
            raise EnvironmentProblem(
                f"--cmd {shlex.quote(cell.command or '')}: {reason} before the measurement began{hint}"
            ) from None

    def _start_load(self, kind: str, cell: Cell, seconds: float) -> Running:
        # Longer than the measurement: the cell ends it once the latency is measured.
        duration = seconds * SLACK + SETTLE_SECONDS + 10
        if kind == "cmd":
            args = ["load", "cmd", "--cmd", cell.command or "true"]
        else:
            args = ["load", kind, *shlex.split(self.load_options.get(kind, ""))]
        call = AgentCall((*args, "--duration", f"{duration:g}"), SCHEMA_LOAD, START_SECONDS + duration + 10)
        return self.target.launch(call)

    def _trace_path(self, cell: Cell) -> Path:
        return (self.directory / study_file.CELLS / f"{cell.name}-trace.txt").resolve()

    def _measure_latency(self, cell: Cell, measure: Measure, seconds: float, progress: Progress) -> dict:
        if measure.break_us is not None:  # the agent saves the kernel's trace there
            (self.directory / study_file.CELLS).mkdir(exist_ok=True)
        limit = START_SECONDS + seconds * SLACK + 30
        trace = (str(self._trace_path(cell)),) if measure.break_us is not None else ()
        call = AgentCall(tuple(measure.agent_args(self._trace_path(cell))), SCHEMA_RT, limit, outputs=trace)
        running = self.target.launch(call)
        previous = signal.getsignal(signal.SIGINT)
        # Ctrl-C asks the agent to end and write what it has, instead of
        # abandoning the cell: the agent runs in a session of its own and
        # does not see the terminal's SIGINT. --timeout does the same.
        signal.signal(signal.SIGINT, lambda *_: running.finish())
        try:
            while running.proc.poll() is None and time.monotonic() - running.started < limit:
                if not self.out_of_time and self._past_deadline():
                    running.finish()
                worst = (running.latest or {}).get("max_ns")
                self.status.show(progress.text(worst_ns=worst if isinstance(worst, int | float) else None))
                time.sleep(0.25)
            return running.wait().document
        finally:
            signal.signal(signal.SIGINT, previous)


@dataclass(frozen=True)
class Progress:
    """The status line of a cell: `cell 2 of 6, cpu-1000us: 12 s, about 7 min 40 s left; max 87 us`."""

    index: int
    pending: list[Cell]
    measure: Measure
    started: float = field(default_factory=time.monotonic)

    def text(self, doing: str | None = None, worst_ns: float | None = None) -> str:
        cell = self.pending[self.index]
        head = f"cell {self.index + 1} of {len(self.pending)}, {cell.name}"
        if doing:
            return f"{head}: {doing}"
        elapsed = time.monotonic() - self.started
        later = sum(_cell_seconds(c, self.measure) for c in self.pending[self.index + 1 :])
        left = max(0.0, _cell_seconds(cell, self.measure) - elapsed) + later
        worst = f"; max {worst_ns / 1000:.0f} us" if worst_ns is not None else ""
        return f"{head}: {duration(elapsed)}, about {duration(left)} left{worst}"


def _cell_seconds(cell: Cell, measure: Measure) -> float:
    """How long a cell should take: its settling second and its measurement."""
    settle = SETTLE_SECONDS if cell.kinds() else 0.0
    return settle + replace(measure, interval_us=cell.interval_us).seconds()


def load_options(given: Sequence[str]) -> dict[str, str]:
    """`--load-options 'cpu=--duty 80 --workers 1'` (repeatable) as {kind: options}."""
    options: dict[str, str] = {}
    for text in given:
        kind, sep, value = text.partition("=")
        if not sep or kind not in LOADS:
            raise BadInput(f"--load-options {text}: KIND=OPTIONS with KIND one of {', '.join(LOADS)}")
        try:
            shlex.split(value)
        except ValueError as err:
            raise BadInput(f"--load-options {text}: {err}") from None
        options[kind] = value
    return options


def cells_of(loads: Sequence[str], intervals: Sequence[int], command: str | None) -> list[Cell]:
    known = ("idle", "all", "cmd", *LOADS)
    for load in loads:
        if load not in known:
            raise BadInput(f"--loads: unknown load '{load}' (known: {', '.join(known)})")
    if "cmd" in loads and not command:
        raise BadInput("--loads cmd needs --cmd 'COMMAND'")
    return [Cell(load, interval, command if load == "cmd" else None) for load in loads for interval in intervals]
