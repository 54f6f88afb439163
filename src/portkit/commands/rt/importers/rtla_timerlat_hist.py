"""`rtla timerlat hist` output (Documentation/tools/rtla/rtla-timerlat-hist.rst,
tools/tracing/rtla/src/timerlat_hist.c):

    # RTLA timerlat histogram
    # Time unit is microseconds (us)          or nanoseconds (ns) with -n
    # Duration:   0 00:10:00
    Index   IRQ-000   Thr-000   IRQ-001   Thr-001      Usr-NNN too with -u/-U
    0        276489         0    206089         0      index = bucket * bucket size (-b)
    ...                                                rows empty in every column left out
    over:         0         0         0         0
    count:   600002    600002    600002    600002      (not with --no-summary)
    min:          0         1         0         1      '-' for a column without samples
    avg:          0         5         0         4      sum / count, truncated
    max:         16        36        15        58
    ALL:        IRQ       Thr                          newer rtla: all CPUs together
    count:  ...

Latencies are whole units (the tracer's ns divided down), so with bucket size
1 bucket i holds samples of exactly i units. rtla does not print the bucket
size: it is the greatest common divisor of the row indices (1 with a single
row). Output made with --no-header or --no-index cannot be read: the columns
or the buckets are not named.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from portkit.commands.rt.importers import model
from portkit.commands.rt.importers.text import Line, Lines, bad, in_ns, shown, whole_number
from portkit.commands.rt.stats import Histogram, histogram_moments
from portkit.core.output import count

TITLE = "# RTLA timerlat histogram"
UNIT = re.compile(r"^# Time unit is (microseconds \(us\)|nanoseconds \(ns\))\s*$")
DURATION = re.compile(r"^# Duration:\s*(\d+)\s+(\d+):(\d+):(\d+)\s*$")
COLUMN = re.compile(r"^(IRQ|Thr|Usr)-(\d+)$")
ROW = re.compile(r"^(\d+)((?:\s+\d+)+)\s*$")
SUMMARY_ROW = re.compile(r"^(over|count|min|avg|max):((?:\s+(?:\d+|-))*)\s*$")
MISSED = re.compile(r"^(\d+) \([\d.]+%\) events missed")
STOP = "rtla timerlat hit stop tracing"
KINDS = {"IRQ": "irq", "Thr": "thread", "Usr": "user"}
MAX_BUCKETS = 1_000_000  # rtla allows -E up to 9999999, but beyond this a row is damaged, not a bucket


@dataclass
class Column:
    kind: str  # irq, thread, user
    cpu: int
    rows: dict[int, int] = field(default_factory=dict)  # index (in units) -> count
    summary: dict[str, int | None] = field(default_factory=dict)  # over, count, min, avg, max


@dataclass
class Run:
    title: Line
    unit_ns: int | None = None
    duration_s: int | None = None
    columns: list[Column] | None = None
    summary_rows: dict[str, Line] = field(default_factory=dict)
    in_all_cpus: bool = False  # the ALL section repeats the rows for every CPU together
    missed_events: int | None = None
    stopped_at_threshold: bool = False


def read(lines: Lines, name: str, problems: list[str]) -> list[dict]:
    runs: list[Run] = []
    for line in lines:
        text = line.text
        if text.strip() == TITLE:
            runs.append(Run(line))
        elif not runs:
            if text.strip():
                raise bad(name, line, f"expected '{TITLE}', got {shown(text)} (output made with --no-header?)")
        else:
            _line(runs[-1], line, name)
    if not runs:
        raise bad(name, None, f"no '{TITLE}' line (output made with --no-header cannot be read)")
    return [_document(run, name, lines.cut if run is runs[-1] else None, problems) for run in runs]


def _line(run: Run, line: Line, name: str) -> None:
    text = line.text.strip()
    if run.stopped_at_threshold or not text:
        return  # after a threshold stop rtla prints its auto-analysis: prose
    if (unit := UNIT.match(text)) is not None:
        run.unit_ns = 1000 if unit[1].startswith("micro") else 1
    elif (duration := DURATION.match(text)) is not None:
        days, hours, minutes, seconds = (whole_number(duration[i], name, line, "duration") for i in range(1, 5))
        run.duration_s = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    elif text.startswith("Index"):
        run.columns = _columns(text, line, name)
    elif text.startswith("ALL:"):
        run.in_all_cpus = True
    elif (summary := SUMMARY_ROW.match(text)) is not None:
        if not run.in_all_cpus:
            _summary_row(run, summary, line, name)
    elif (row := ROW.match(text)) is not None:
        _row(run, row, line, name)
    elif (missed := MISSED.match(text)) is not None:
        run.missed_events = whole_number(missed[1], name, line, "missed events")
    elif text.startswith("unknown number of events missed"):
        run.missed_events = None
    elif text == STOP:
        run.stopped_at_threshold = True
    elif COLUMN.match(text.split()[0]):
        raise bad(name, line, "no 'Index' column (output made with --no-index cannot be read)")
    else:
        raise bad(name, line, f"expected a histogram row ('12   345   678'), got {shown(line.text)}")


def _columns(text: str, line: Line, name: str) -> list[Column]:
    columns = []
    for word in text.split()[1:]:
        match = COLUMN.match(word)
        if match is None:
            raise bad(name, line, f"expected columns like 'IRQ-000 Thr-000', got {shown(word)}")
        columns.append(Column(KINDS[match[1]], whole_number(match[2], name, line, "cpu")))
    if not columns:
        raise bad(name, line, "the 'Index' line names no columns")
    return columns


def _values(run: Run, words: list[str], line: Line, name: str) -> list[str]:
    if run.columns is None:
        raise bad(name, line, "a row before the 'Index IRQ-000 Thr-000 ...' line (output made with --no-header?)")
    if len(words) != len(run.columns):
        raise bad(name, line, f"{count(len(words), 'value')} for {count(len(run.columns), 'column')}")
    return words


def _row(run: Run, row: re.Match[str], line: Line, name: str) -> None:
    if run.summary_rows:
        raise bad(name, line, "a histogram row after the 'over:' row")
    index = whole_number(row[1], name, line, "index")
    words = _values(run, row[2].split(), line, name)
    assert run.columns is not None
    previous = max(run.columns[0].rows, default=-1)
    if index <= previous:
        raise bad(name, line, f"index {index} comes after index {previous}")
    for column, word in zip(run.columns, words, strict=True):
        column.rows[index] = whole_number(word, name, line, "count")


def _summary_row(run: Run, summary: re.Match[str], line: Line, name: str) -> None:
    key = summary[1]
    words = _values(run, summary[2].split(), line, name)
    assert run.columns is not None
    for column, word in zip(run.columns, words, strict=True):
        column.summary[key] = None if word == "-" else whole_number(word, name, line, key)
    run.summary_rows[key] = line


def _document(run: Run, name: str, cut: Line | None, problems: list[str]) -> dict:
    stopped = "unknown"
    if cut is not None:
        problems.append(f"{name}:{cut.number}: the last line is cut short ({shown(cut.text)}); it is left out")
    if run.columns is None:
        raise bad(name, cut or run.title, "no 'Index IRQ-000 Thr-000 ...' line after the title")
    if "over" not in run.summary_rows:
        raise bad(name, cut or run.title, "the histogram stops before its 'over:' row (file cut short?)")
    if run.unit_ns is None:
        problems.append(f"{name}:{run.title.number}: no '# Time unit is' line: microseconds assumed")
    unit_ns = run.unit_ns or 1000
    indices = [index for index in run.columns[0].rows if index]
    bucket = math.gcd(*indices) if indices else 1
    if max(run.columns[0].rows, default=0) // bucket >= MAX_BUCKETS:
        raise bad(name, run.title, f"more than {MAX_BUCKETS} buckets")
    by_cpu: dict[int, dict[str, dict]] = {}
    for column in run.columns:
        label = f"{column.kind}-{column.cpu:03d}"
        by_cpu.setdefault(column.cpu, {})[column.kind] = _stats(column, bucket, unit_ns, name, label, problems)
    if run.missed_events:
        problems.append(f"{name}: rtla lost {count(run.missed_events, 'trace event')}; its counts may be short")
    if run.stopped_at_threshold:
        problems.append(f"{name}: rtla stopped tracing at a latency threshold (-a, -i or -T)")
        stopped = "interrupted"
    main_kind = next((kind for kind in ("thread", "user") if any(kind in kinds for kinds in by_cpu.values())), None)
    threads = [model.thread(cpu, kinds[main_kind]) for cpu, kinds in sorted(by_cpu.items()) if main_kind in kinds]
    timerlat_threads = [
        {"cpu": cpu, **{kind: kinds.get(kind) for kind in ("irq", "thread", "user")}}
        for cpu, kinds in sorted(by_cpu.items())
    ]
    return model.document(
        source=model.source("rtla-timerlat", "hist", name),
        config=model.config(cpus=sorted(by_cpu), duration_s=run.duration_s, bucket_ns=bucket * unit_ns),
        threads=threads,
        timerlat={"available": True, "threads": timerlat_threads, "missed_events": run.missed_events},
        stopped=stopped,
    )


def _stats(column: Column, bucket: int, unit_ns: int, name: str, label: str, problems: list[str]) -> dict:
    """One column's statistics. With bucket size 1 and nothing over, the
    histogram holds every sample exactly: min, max, mean and standard deviation
    come from it. Otherwise rtla's own min, max and truncated average are used,
    and the standard deviation is unknown."""
    top = max(column.rows, default=-1)
    counts = [0] * (top // bucket + 1)
    for index, samples in column.rows.items():
        counts[index // bucket] += samples
    summary = column.summary
    over = summary.get("over") or 0
    in_buckets = sum(counts)
    samples = summary.get("count")
    if samples is None:
        samples = in_buckets + over
    elif samples != in_buckets + over:
        problems.append(f"{name}: {label}: count {samples}, but the rows and 'over:' hold {in_buckets + over}")

    def ns(key: str) -> int | None:
        value = summary.get(key)
        return in_ns(value, unit_ns, name, None, key) if value is not None else None

    maximum = ns("max")
    histogram = Histogram(bucket * unit_ns, counts, over, maximum if over else None)
    exact = bucket == 1 and over == 0 and in_buckets > 0
    mean, stddev = ns("avg"), None
    minimum = ns("min")
    if exact:
        moments = histogram_moments(histogram)
        mean, stddev = moments.mean_ns(), moments.stddev_ns()
        filled = [i for i, samples in enumerate(counts) if samples]  # bucket i holds samples of exactly i units
        minimum = minimum if minimum is not None else filled[0] * unit_ns
        maximum = maximum if maximum is not None else filled[-1] * unit_ns
        avg = summary.get("avg")
        if avg is not None and Fraction(moments.total, in_buckets * unit_ns) // 1 != avg:
            problems.append(f"{name}: {label}: the rows' mean does not truncate to rtla's avg {avg}")
    return model.latency_stats(
        samples=samples,
        min_ns=minimum,
        max_ns=maximum,
        mean_ns=mean,
        stddev_ns=stddev,
        histogram=histogram,
    )
