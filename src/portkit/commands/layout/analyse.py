"""Every record of every input for every ABI: one parse per (file, ABI), in
worker processes, so a file that crashes libclang or takes too long is
reported and the others still count."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from portkit.core.abis import Abi
from portkit.core.errors import BadInput
from portkit.core.workers import Failed
from portkit.cparse.layout import bases
from portkit.cparse.layout.records import Record, collect
from portkit.cparse.libclang import cindex
from portkit.cparse.parse import Problem, parse, parse_in_workers
from portkit.cparse.source import read_source

ERRORS_SHOWN = 3  # per file and ABI; the rest are counted


@dataclass(frozen=True)
class ParseJob:
    """One input for one ABI: what a worker needs to lay its records out."""

    path: Path
    text: str
    abi: Abi
    flags: tuple[str, ...]
    sysroot: Path | None


@dataclass
class Parsed:
    records: list[Record]
    errors: list[Problem]


@dataclass
class Analysis:
    per_abi: dict[str, list[Record]]  # each record once per ABI, the first input that defines it wins
    problems: list[str] = field(default_factory=list)  # what did not resolve: warnings
    failed: list[str] = field(default_factory=list)  # inputs that could not be read or parsed at all


def analyse(
    inputs: Sequence[Path],
    abis: Sequence[Abi],
    flags_for: Callable[[Path], list[str]],
    sysroot: Path | None,
    jobs: int,
    timeout: float | None,
    parsed: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every input for every ABI; parsed(count, total) as each parse ends."""
    result = Analysis({a.name: [] for a in abis})
    work: list[ParseJob] = []
    for path in inputs:
        try:
            text = read_source(path)
        except BadInput as err:
            result.failed.append(str(err))
            continue
        flags = tuple(flags_for(path))
        work += [ParseJob(path, text, abi, flags, sysroot) for abi in abis]
    count = 0

    def done(_: int) -> None:
        nonlocal count
        count += 1
        if parsed is not None:
            parsed(count, len(work))

    outcomes = parse_in_workers(layouts_of, work, jobs, timeout, done)
    seen: dict[str, set[str]] = {a.name: set() for a in abis}
    crashes: dict[tuple[Path, str], list[str]] = {}
    for job, outcome in zip(work, outcomes, strict=True):
        if isinstance(outcome, Failed):
            crashes.setdefault((job.path, outcome.reason), []).append(job.abi.name)
            continue
        _note_errors(result.problems, job, outcome.errors)
        names = seen[job.abi.name]
        new = [r for r in outcome.records if r.name not in names]
        names.update(r.name for r in new)
        result.per_abi[job.abi.name] += new
    result.failed += [f"{path}: the parser {reason} ({', '.join(names)})" for (path, reason), names in crashes.items()]
    return result


def _note_errors(problems: list[str], job: ParseJob, errors: list[Problem]) -> None:
    for e in errors[:ERRORS_SHOWN]:
        line = f"{e} [{job.abi.name}]"
        if line not in problems:
            problems.append(line)
    if len(errors) > ERRORS_SHOWN:
        problems.append(f"{job.path}: {len(errors) - ERRORS_SHOWN} more errors [{job.abi.name}]")


def layouts_of(job: ParseJob) -> Parsed:
    """In a worker: the records one input defines, for one ABI, bases placed."""
    ci = cindex()
    flags = list(job.flags)
    tu, errors = parse(str(job.path), job.abi, flags, job.sysroot, job.text)
    if tu is None:
        return Parsed([], errors)
    pointer = 4 if job.abi.data_model == "ILP32" else 8
    records = collect(ci, tu, pointer, itanium="msvc" not in job.abi.triple)
    header = str(job.path.resolve())
    bases.place(ci, header, records, partial(probe, header, job.abi, flags, job.sysroot))
    return Parsed(records, errors)


def probe(header: str, abi: Abi, flags: list[str], sysroot: Path | None, text: str):
    """Parses probe text that includes `header`, as C++, for `abi`."""
    name = header + ".portkit-probe.cpp"  # never written: clang reads it from memory
    tu, _ = parse(name, abi, flags, sysroot, text)  # a base clang cannot name just stays unplaced
    return tu
