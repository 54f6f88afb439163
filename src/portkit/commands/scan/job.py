"""What a scan hands a worker for one translation unit, and what it gets
back: kept apart from the engine, so that the process that reads the
inputs and writes the report never imports the rules and the walk
(core.workers.Host imports them in the workers' parent meanwhile)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from portkit.commands.scan.models import ModelPair
from portkit.cparse.libclang import Inclusion
from portkit.cparse.parse import Problem
from portkit.findings.model import Finding, Incomplete


@dataclass(frozen=True)
class ScanJob:
    """One translation unit: what a worker needs to scan it."""

    path: Path
    text: str
    flags: tuple[str, ...]
    pair: ModelPair
    sysroot: Path | None
    rules: frozenset[str]  # the rule ids selected


@dataclass
class Scanned:
    findings: list[Finding] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)  # what clang could not make sense of
    parsed: bool = False
    incomplete: Incomplete | None = None  # why the unit was not checked completely
    # findings moved to a macro's definition -> (the macro's name, the uses that made them)
    expansions: dict[Finding, tuple[str, set[tuple[str, int, int]]]] = field(default_factory=dict)
    # headers the target's own directories lack, found where the build machine keeps its own
    build_machine_headers: list[str] = field(default_factory=list)
    # Every #include either parse followed: what the cache checks before reusing these findings.
    included: list[Inclusion] = field(default_factory=list)
