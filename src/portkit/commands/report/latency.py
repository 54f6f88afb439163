"""The latency area: every cell of the studies and results given, as rt's
table shows it (commands/rt/summary.py pools the threads), judged against
its limit: `--max-latency-us` for the cell, its load or every load, else its
own interval (a wake-up later than one period misses the next deadline).
Cells measured under qemu-user are shown, never judged: their timings are
the emulator's."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from portkit.commands.report.model import NOT_MEASURED, NOT_READY, READY, Settings, Source, sysinfo_group
from portkit.core.errors import BadInput
from portkit.core.output import count

OVER_LIMIT_FIX = (
    "Find what delays the wake-up: measure the cell again with `portkit rt run --break US` at the limit (the "
    "kernel trace of the first wake-up that late is saved beside it), and act on the target's warnings "
    "(`portkit rt sysinfo`): a PREEMPT_RT kernel, the performance governor, no deep idle states, isolated CPUs."
)
FAILED_FIX = "Measure the cell again; its document's `error` says what failed on the target."


@dataclass
class Latency:
    """The cells of one operand: a study, a directory of results, a result
    file, or a file of cyclictest or rtla output."""

    title: str
    emulated: bool
    cells: list[tuple[str, dict]]
    sysinfo: dict | None = None
    warnings: list[str] = field(default_factory=list)  # what reading it met (an import's problems)

    @classmethod
    def from_directory(cls, path: Path) -> Latency:
        from portkit.commands.rt import study_file

        try:
            latency = cls.from_results(path)
        except BadInput as err:
            raise BadInput(
                f"{err} (a source tree is --source DIR, headers --headers DIR, an image --rootfs DIR)"
            ) from None
        study = study_file.read(path)
        latency.sysinfo = study.get("sysinfo") if study else None
        return latency

    @classmethod
    def from_results(cls, path: Path) -> Latency:
        from portkit.commands.rt.results import read_results

        results = read_results(path)
        for name, document in results.cells:
            _check_cell(document, f"{path} ({name})")
        return cls(results.title, results.emulated, list(results.cells))

    @classmethod
    def from_import(cls, path: Path, documents: list[dict]) -> Latency:
        suffix = len(documents) > 1
        cells = [(f"{path.stem}-{i + 1}" if suffix else path.stem, doc) for i, doc in enumerate(documents)]
        problems = documents[0].get("source", {}).get("problems", []) if documents else []
        return cls(str(path), False, cells, warnings=list(problems))


def _check_cell(document: dict, where: str) -> None:
    rt = document.get("rt", document)
    threads = rt.get("threads") if isinstance(rt, dict) else None
    if not isinstance(threads, list) or not all(isinstance(t, dict) for t in threads):
        raise BadInput(f"{where}: a portkit rt result without threads[]")


def judge(sources: list[tuple[int, Source]], settings: Settings) -> dict[str, Any]:
    """The area's items (cells over their limit, notes) and its table of cells."""
    from portkit.commands.rt.summary import row

    names = [name for _, s in sources for name, _ in s.document.cells]
    items: list[dict] = []
    cells: list[dict] = []
    for index, source in sources:
        latency: Latency = source.document
        for name, document in latency.cells:
            r = row(name, document)
            rt = document.get("rt", document)
            key = name if names.count(name) == 1 else f"{source.label}: {name}"
            limit_us, limit_from = limit_for(name, r.load, r.interval_us, settings)
            threads = [t for t in rt.get("threads") or [] if isinstance(t, dict)]
            cell = {
                "key": key,
                "source": index,
                "name": name,
                "load": r.load,
                "interval_us": r.interval_us,
                "samples": r.samples,
                "min_ns": r.min_ns,
                "mean_ns": r.mean_ns,
                "p99_ns": r.p99_ns,
                "p999_ns": r.p999_ns,
                "max_ns": r.max_ns,
                "missed": r.missed,
                "achieved": r.achieved,
                "rt": r.rt,
                "stopped": r.stopped,
                "emulated": latency.emulated,
                "limit_us": limit_us,
                "limit_from": limit_from,
                "threads_p99_ns": [(t.get("percentiles_ns") or {}).get("99") for t in threads],
                "threads_max_ns": [t.get("max_ns") for t in threads],
                "bucket_ns": _bucket_ns(threads),
            }
            cell["verdict"], cell["why"] = _verdict(cell, rt)
            cells.append(cell)
            if cell["verdict"] == NOT_READY:
                items.append(_over_limit(cell, index, rt))
        items += _notes(index, source, latency)
    return {"items": items, "cells": cells}


def limit_for(name: str, load: str, interval_us: int | None, settings: Settings) -> tuple[float | None, str]:
    """The cell's limit in us and where it comes from."""
    given = settings.max_latency_us
    for key in (name, load):
        if key in given:
            return given[key], f"--max-latency-us {key}={given[key]:g}"
    if "*" in given:
        return given["*"], f"--max-latency-us {given['*']:g}"
    if interval_us:
        return float(interval_us), "its interval: a later wake-up misses the next period"
    return None, "no --max-latency-us, and the result does not say its interval"


def _verdict(cell: dict, rt: dict) -> tuple[str, str]:
    if cell["emulated"]:
        return NOT_MEASURED, "measured under qemu-user: the timings are the emulator's"
    if cell["stopped"] == "error":
        return NOT_READY, f"the measurement failed: {rt.get('error') or 'no reason given'}"
    if not cell["samples"] or cell["max_ns"] is None:
        return NOT_MEASURED, "no samples"
    if cell["limit_us"] is None:
        return NOT_MEASURED, cell["limit_from"]
    limit_ns = cell["limit_us"] * 1000
    if cell["max_ns"] > limit_ns:
        return NOT_READY, f"max {_us(cell['max_ns'])} us > {cell['limit_us']:g} us"
    return READY, f"max {_us(cell['max_ns'])} us <= {cell['limit_us']:g} us"


def _over_limit(cell: dict, index: int, rt: dict) -> dict:
    failed = cell["stopped"] == "error"
    missed = f", {count(cell['missed'], 'period')} missed" if cell["missed"] else ""
    message = (
        cell["why"]
        if failed
        else f"max {_us(cell['max_ns'])} us over the {cell['limit_us']:g} us limit ({cell['limit_from']}); "
        f"p99 {_us(cell['p99_ns'])} us, {cell['samples']} samples{missed}"
    )
    return {
        "key": f"cell:{cell['key']}",
        "source": index,
        "severity": "error",
        "group": "measurement-failed" if failed else "over-limit",
        "title": "the measurement failed" if failed else "wake-up latency over the limit",
        "where": cell["key"],
        "message": message,
        "fix": FAILED_FIX if failed else OVER_LIMIT_FIX,
        "decides": True,
    }


def _notes(index: int, source: Source, latency: Latency) -> list[dict]:
    """What the cells alone do not say: emulated timings, the target's warnings, an import's problems."""
    notes = []
    if latency.emulated:
        notes.append(
            _note(
                index,
                "emulated",
                "EMULATED by qemu-user",
                source.label,
                "its timings mean nothing about a board",
                "Measure on the board: --target ssh:HOST.",
            )
        )
    for warning in (latency.sysinfo or {}).get("warnings") or []:
        if isinstance(warning, dict):
            about = str(warning.get("about", ""))
            notes.append(
                _note(
                    index,
                    f"sysinfo:{about}",
                    "the target's facts that make wake-ups late",
                    f"{source.label}: {about}",
                    str(warning.get("message", "")),
                    "",
                    group=sysinfo_group(warning),
                )
            )
    for problem in latency.warnings:
        notes.append(_note(index, f"import:{problem}", "what reading the file met", source.label, problem, ""))
    return notes


def _note(index: int, key: str, title: str, where: str, message: str, fix: str, group: str = "") -> dict:
    return {
        "key": key,
        "source": index,
        "severity": "note",
        "group": group or key.partition(":")[0],
        "title": title,
        "where": where,
        "message": message,
        "fix": fix,
        "decides": False,
    }


def _bucket_ns(threads: list[dict]) -> int | None:
    widths = {(t.get("histogram") or {}).get("bucket_ns") for t in threads}
    widths.discard(None)
    return max(widths) if widths else None


def _us(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1000:.1f}"


# ------------------------------------------------------------------ against a baseline

STATISTICS = (("p99", "p99_ns", "threads_p99_ns"), ("max", "max_ns", "threads_max_ns"))


def compare_cell(old: dict, new: dict, noise_percent: float) -> dict[str, Any]:
    """p99 and max against the baseline's: `worse` or `better` only beyond the
    noise, the largest of: noise_percent of the old value, the spread
    between the CPUs of either run (threads measuring the same thing at the
    same time; their disagreement is what the statistic does by chance), and
    one histogram bucket (the resolution)."""
    changes: dict[str, Any] = {}
    for name, key, per_thread in STATISTICS:
        before, after = old.get(key), new.get(key)
        if not isinstance(before, int) or not isinstance(after, int):
            continue
        tolerance = max(
            noise_percent / 100 * before,
            _spread(old.get(per_thread)),
            _spread(new.get(per_thread)),
            old.get("bucket_ns") or 0,
            new.get("bucket_ns") or 0,
        )
        delta = after - before
        change = "worse" if delta > tolerance else "better" if -delta > tolerance else "same"
        changes[name] = {"old_ns": before, "new_ns": after, "tolerance_ns": round(tolerance), "change": change}
    kinds = {c["change"] for c in changes.values()}
    changes["change"] = "worse" if "worse" in kinds else "better" if "better" in kinds else "same"
    return changes


def _spread(values: object) -> int:
    numbers = [v for v in values if isinstance(v, int)] if isinstance(values, list) else []
    return max(numbers) - min(numbers) if len(numbers) > 1 else 0
