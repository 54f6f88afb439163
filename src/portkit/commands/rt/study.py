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
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from portkit.core.errors import BadInput
from portkit.core.output import write_atomically
from portkit.core.target import START_SECONDS, AgentCall, Running, Target

STUDY = "study.json"
CELLS = "cells"
SCHEMA_STUDY = "portkit.rt-study/1"
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
    directory: Path
    target: Target
    cells: list[Cell]
    measure: Measure
    load_options: dict[str, str] = field(default_factory=dict)  # a kind's own agent options, as typed
    status: Callable[[str], None] = lambda line: None

    def cell_path(self, cell: Cell) -> Path:
        return self.directory / CELLS / f"{cell.name}.json"

    def done(self, cell: Cell) -> bool:
        """A cell on disk that finished (an interrupted one is measured again)."""
        try:
            document = json.loads(self.cell_path(cell).read_text())
        except (OSError, ValueError):
            return False
        return document.get("rt", {}).get("stopped") in ("completed", "break")

    def run(self) -> list[Cell]:
        """Measures every cell not yet done; returns those measured now."""
        self._prepare()
        measured = []
        for cell in self.cells:
            if self.done(cell):
                self.status(f"{cell.name}: kept from an earlier run")
                continue
            document = self._measure(cell)
            write_atomically(self.cell_path(cell), json.dumps(document, indent=1) + "\n")
            measured.append(cell)
            if document["rt"].get("stopped") == "interrupted":
                raise KeyboardInterrupt  # the user stopped it: what was measured is kept
        return measured

    def _prepare(self) -> None:
        (self.directory / CELLS).mkdir(parents=True, exist_ok=True)
        path = self.directory / STUDY
        description = self.describe()
        if path.exists():
            try:
                earlier = json.loads(path.read_text())
            except ValueError:
                raise BadInput(f"{path}: not a portkit study (invalid JSON)") from None
            if earlier.get("measure") != description["measure"]:
                raise BadInput(
                    f"{self.directory}: holds a study measured with other options "
                    "(use another directory, or the same options)"
                )
            description["sysinfo"] = earlier.get("sysinfo")
            description["cells"] = list(dict.fromkeys(earlier.get("cells", []) + description["cells"]))
        if not description.get("sysinfo"):
            description["sysinfo"] = self.target.run(AgentCall(("rt", "sysinfo"), SCHEMA_SYSINFO)).document
        write_atomically(path, json.dumps(description, indent=1) + "\n")

    def describe(self) -> dict:
        m = self.measure
        return {
            "schema": SCHEMA_STUDY,
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

    def _measure(self, cell: Cell) -> dict:
        measure = replace(self.measure, interval_us=cell.interval_us)
        seconds = measure.seconds()
        loads = [self._start_load(kind, cell, seconds) for kind in cell.kinds()]
        try:
            if loads:
                time.sleep(SETTLE_SECONDS)
                for load in loads:
                    if load.proc.poll() is not None:
                        load.wait()  # a load that ended already was refused: its one line, before measuring
            rt = self._measure_latency(cell, measure, seconds)
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
            "rt": rt,
            "loads": achieved,
        }

    def _start_load(self, kind: str, cell: Cell, seconds: float) -> Running:
        # Longer than the measurement: the cell ends it once the latency is measured.
        duration = seconds * SLACK + SETTLE_SECONDS + 10
        if kind == "cmd":
            args = ["load", "cmd", "--cmd", cell.command or "true"]
        else:
            args = ["load", kind, *shlex.split(self.load_options.get(kind, ""))]
        call = AgentCall((*args, "--duration", f"{duration:g}"), SCHEMA_LOAD, START_SECONDS + duration + 10)
        return self.target.launch(call)

    def _measure_latency(self, cell: Cell, measure: Measure, seconds: float) -> dict:
        trace = (self.directory / CELLS / f"{cell.name}-trace.txt").resolve()
        call = AgentCall(tuple(measure.agent_args(trace)), SCHEMA_RT, START_SECONDS + seconds * SLACK + 30)
        running = self.target.launch(call)
        previous = signal.getsignal(signal.SIGINT)
        # Ctrl-C asks the agent to end and write what it has, instead of
        # abandoning the cell: the agent runs in a session of its own and
        # does not see the terminal's SIGINT.
        signal.signal(signal.SIGINT, lambda *_: running.finish())
        try:
            while running.proc.poll() is None:
                self._report(cell, running, seconds)
                time.sleep(0.25)
            return running.wait().document
        finally:
            signal.signal(signal.SIGINT, previous)

    def _report(self, cell: Cell, running: Running, seconds: float) -> None:
        progress = running.latest or {}
        elapsed = progress.get("elapsed_s", time.monotonic() - running.started)
        worst = progress.get("max_ns")
        worst_text = f", max {worst / 1000:.0f} us" if isinstance(worst, int | float) else ""
        self.status(f"{cell.name}: {elapsed:.0f}/{seconds:.0f} s{worst_text}")


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


def terminal_status() -> Callable[[str], None]:
    """A status line rewritten in place on a terminal; nothing on a pipe."""
    if not sys.stderr.isatty():
        return lambda line: None

    def show(line: str) -> None:
        sys.stderr.write("\r\x1b[K" + line)
        sys.stderr.flush()

    return show
