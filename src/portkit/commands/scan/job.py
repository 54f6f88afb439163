"""What a scan hands a worker for one translation unit, and what it gets
back: kept apart from the engine, so that the process that reads the
inputs and writes the report never imports the rules and the walk
(core.workers.Host imports them in the workers' parent meanwhile)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.models import ModelPair
from portkit.core.errors import BadInput
from portkit.cparse.libclang import Inclusion
from portkit.cparse.parse import Problem
from portkit.cparse.source import read_source
from portkit.findings.model import Finding, Incomplete

Stamp = tuple[int, int, int, int]  # a file's inode, size, modification and change times (ns)
CHANGED = "changed on disk while it was being scanned: scan again"


@dataclass(frozen=True)
class ScanJob:
    """One translation unit: what a worker needs to scan it."""

    path: Path
    text: str
    flags: tuple[str, ...]
    pair: ModelPair
    sysroot: Path | None
    rules: frozenset[str]  # the rule ids selected
    # The file's stamp when `text` was read from it unchanged (None: a text of
    # its own, such as --fix checks): the worker then reads the file again
    # instead of being sent the text (sent(), received()).
    read_as: Stamp | None = None


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


def stamp(path: Path) -> Stamp | None:
    """What tells a regular file's content apart without reading it (None:
    it cannot be looked at, or it is no regular file: a named pipe read
    again would wait for a writer that is gone)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def sent(job: ScanJob) -> ScanJob:
    """The job as it goes to a worker: a text read from its file stays
    behind, and the worker reads the file again (from the page cache, in
    milliseconds; sqlite3.c's 8.6 MB took 0.06 s through the host's pipes)."""
    return replace(job, text="") if job.read_as is not None else job


def received(job: ScanJob) -> ScanJob | Scanned:
    """In the worker: the job with its text, read again where it was left
    behind; a file that is no longer what the command read (edited since)
    is a unit not checked, with the reason."""
    if job.read_as is None:
        return job
    try:
        text = read_source(job.path, empty_ok=True)
    except BadInput:
        text = None
    if text is None or stamp(job.path) != job.read_as:
        path = str(job.path)
        return Scanned(errors=[Problem(path, 0, CHANGED)], incomplete=Incomplete(shown_path(path), CHANGED))
    return replace(job, text=text)
