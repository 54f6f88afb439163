"""cyclictest's verbose log (`-v`): one line per wake-up, read as a stream so
a log of millions of lines needs no more memory than its histogram:

    Max CPUs = 2                      starts a run
    Online CPUs = 2
    # /dev/cpu_dma_latency set to 0us
    Thread 0 using cpu 1.             with -a
    Thread 0 Interval: 1500           see below
           0:       0:      23        thread:cycle:latency (us)
    ...
    # Histogram                       with -h as well: the histogram follows

cyclictest prints `Thread N Interval:` after adding the distance (-d) for
the next thread, so the line shows thread N+1's interval: thread N's is the
value less the distance, which is the step between two threads' lines, or
cyclictest's default 500 us when there is one thread. With a histogram the
threads share one interval and the lines are right as printed.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field

from portkit.commands.rt.importers import model
from portkit.commands.rt.importers.cyclictest_histogram import TITLE, HistogramSection, ThreadHistogram
from portkit.commands.rt.importers.cyclictest_lines import is_chatter, policy_of, summary_line
from portkit.commands.rt.importers.text import Line, Lines, bad, in_ns, shown, whole_number
from portkit.commands.rt.stats import BlockMaxSeries, Histogram, Moments
from portkit.core.errors import BadInput
from portkit.core.output import count

US = 1000
DEFAULT_DISTANCE_US = 500  # cyclictest's -d default
HISTOGRAM_BUCKETS = 100_000  # 1 us buckets up to 100 ms; slower wake-ups go to the overflow
WORST = 10
MAX_THREADS = 4096

SAMPLE = re.compile(r"^\s*(\d+):\s*(\d+):\s*(-?\d+)(?:\s+\d+)?\s*$")  # --smi adds a count
RUN_START = re.compile(r"^Max CPUs = \d+$")
HEADER = re.compile(r"^(Online CPUs = \d+|Using \d+ cpus\.)$")
USING_CPU = re.compile(r"^Thread (\d+) using cpu (\d+)\.$")
INTERVAL = re.compile(r"^Thread (\d+) Interval: (\d+)$")


@dataclass
class ThreadLog:
    """One thread's samples so far, kept as sums, a histogram, the worst few
    and the block maxima."""

    cpu: int | None = None
    printed_interval_us: int | None = None
    samples: int = 0
    last_cycle: int = -1
    missing_cycles: int = 0
    first_gap: tuple[int, int] | None = None  # (cycle before the gap, its line)
    moments: Moments = field(default_factory=Moments)
    minimum: int | None = None
    maximum: int | None = None
    counts: list[int] = field(default_factory=list)
    overflow: int = 0
    overflow_max: int | None = None
    worst: list[tuple[int, int]] = field(default_factory=list)  # min-heap of (ns, -cycle)
    series: BlockMaxSeries = field(default_factory=BlockMaxSeries)

    def add(self, cycle: int, ns: int, line: Line) -> None:
        if cycle > self.last_cycle + 1:
            self.missing_cycles += cycle - self.last_cycle - 1
            self.first_gap = self.first_gap or (self.last_cycle, line.number)
        self.last_cycle = cycle
        self.samples += 1
        self.moments.add(ns)
        self.minimum = ns if self.minimum is None else min(self.minimum, ns)
        self.maximum = ns if self.maximum is None else max(self.maximum, ns)
        index = ns // US
        if index < HISTOGRAM_BUCKETS:
            if index >= len(self.counts):
                self.counts.extend([0] * (index + 1 - len(self.counts)))
            self.counts[index] += 1
        else:
            self.overflow += 1
            self.overflow_max = ns if self.overflow_max is None else max(self.overflow_max, ns)
        heapq.heappush(self.worst, (ns, -cycle))  # on equal latency the earlier cycle stays
        if len(self.worst) > WORST:
            heapq.heappop(self.worst)
        self.series.add(ns)

    def histogram(self) -> Histogram:
        return Histogram(US, list(self.counts), self.overflow, self.overflow_max)


@dataclass
class Run:
    threads: dict[int, ThreadLog] = field(default_factory=dict)
    section: HistogramSection | None = None
    policy: str | None = None
    first_summary_interval: int | None = None

    def thread(self, index: int, name: str, line: Line) -> ThreadLog:
        if index not in self.threads and len(self.threads) >= MAX_THREADS:
            raise bad(name, line, f"thread {index}: more than {MAX_THREADS} threads")
        return self.threads.setdefault(index, ThreadLog())


def read(lines: Lines, name: str, problems: list[str]) -> list[dict]:
    documents: list[dict] = []
    run = Run()
    for line in lines:
        text = line.text
        if run.section is not None and run.section.feed(line):
            continue
        sample = SAMPLE.match(text)
        if sample is not None:
            _sample(run, sample, line, name)
        elif RUN_START.match(text):
            if run.threads:
                documents.append(_document(run, name, None, problems))
            run = Run()
        elif (found := USING_CPU.match(text)) is not None:
            run.thread(whole_number(found[1], name, line, "thread"), name, line).cpu = whole_number(
                found[2], name, line, "cpu"
            )
        elif (found := INTERVAL.match(text)) is not None:
            thread = run.thread(whole_number(found[1], name, line, "thread"), name, line)
            thread.printed_interval_us = whole_number(found[2], name, line, "interval")
        elif text.strip() == TITLE:
            run.section = HistogramSection(name, line)
        elif HEADER.match(text) or is_chatter(text) or text.startswith("# "):
            pass
        elif (found_policy := policy_of(text)) is not None:
            run.policy = found_policy
        elif (summary := summary_line(line, name)) is not None:
            if summary.thread == 0:
                run.first_summary_interval = summary.interval_us
        else:
            raise bad(name, line, f"expected 'thread:cycle:latency', got {shown(text)}")
    if not run.threads and not documents:
        raise bad(name, None, "no samples ('thread:cycle:latency' lines)")
    documents.append(_document(run, name, lines.cut, problems))
    return documents


def _sample(run: Run, sample: re.Match[str], line: Line, name: str) -> None:
    if sample[3].startswith("-"):
        raise bad(name, line, "negative latency: the clock went backwards")
    index = whole_number(sample[1], name, line, "thread")
    cycle = whole_number(sample[2], name, line, "cycle")
    ns = in_ns(whole_number(sample[3], name, line, "latency"), US, name, line, "latency")
    thread = run.thread(index, name, line)
    if cycle <= thread.last_cycle:
        raise bad(
            name,
            line,
            f"thread {index}'s cycle {cycle} follows cycle {thread.last_cycle} "
            "(two runs in one file need each its 'Max CPUs' line)",
        )
    thread.add(cycle, ns, line)


def _intervals(run: Run) -> tuple[dict[int, int], int | None]:
    """Each thread's interval (us) and the distance, from the printed lines."""
    printed = {i: t.printed_interval_us for i, t in run.threads.items() if t.printed_interval_us is not None}
    if not printed:
        return {}, None
    if run.section is not None:  # with -h the distance is 0 and the lines are exact
        return printed, 0
    ordered = sorted(printed)
    distance = DEFAULT_DISTANCE_US
    if len(ordered) > 1 and ordered[1] == ordered[0] + 1:
        distance = printed[ordered[1]] - printed[ordered[0]]
    intervals = {i: value - distance for i, value in printed.items()}
    if distance < 0 or min(intervals.values()) <= 0:
        return {}, None  # not lines cyclictest printed
    return intervals, distance


def _document(run: Run, name: str, cut: Line | None, problems: list[str]) -> dict:
    stopped = "unknown"
    if cut is not None:
        problems.append(
            f"{name}:{cut.number}: the last line is cut short ({shown(cut.text)}); "
            "every complete sample before it is kept"
        )
        stopped = "interrupted"
    intervals, distance = _intervals(run)
    printed_histogram = None
    if run.section is not None:
        try:
            printed_histogram = run.section.threads(cut, problems)
        except BadInput as err:  # a damaged histogram after sound samples: keep the samples
            problems.append(f"{err}; the log's samples are used")
    threads = []
    for index in sorted(run.threads):
        log = run.threads[index]
        label = f"thread {index}"
        if log.missing_cycles and log.first_gap is not None:
            problems.append(
                f"{name}:{log.first_gap[1]}: {label}: {count(log.missing_cycles, 'cycle')} "
                f"{'is' if log.missing_cycles == 1 else 'are'} missing from the log, "
                f"the first after cycle {log.first_gap[0]} (lines lost, or an -o reduced log)"
            )
        histogram = log.histogram()
        stats = model.latency_stats(
            samples=log.samples,
            min_ns=log.minimum,
            max_ns=log.maximum,
            mean_ns=log.moments.mean_ns(),
            stddev_ns=log.moments.stddev_ns(),
            histogram=histogram,
        )
        interval = intervals.get(index)
        worst = [
            {
                "ns": ns,
                "cycle": -negative_cycle,
                "time_s": round((-negative_cycle + 1) * interval / 1e6, 6) if interval is not None else None,
            }
            for ns, negative_cycle in sorted(log.worst, key=lambda item: (-item[0], -item[1]))
        ]
        if printed_histogram is not None and index < len(printed_histogram):
            _compare(printed_histogram[index], log, name, label, problems)
        threads.append(model.thread(log.cpu, stats, worst=worst, series=log.series.to_json()))
    cpus = sorted({log.cpu for log in run.threads.values() if log.cpu is not None})
    return model.document(
        source=model.source("cyclictest", "verbose", name),
        config=model.config(
            interval_us=intervals.get(min(intervals)) if intervals else run.first_summary_interval,
            distance_us=distance,
            policy=run.policy,
            cpus=cpus or None,
            bucket_ns=US,
        ),
        threads=threads,
        stopped=stopped,
    )


def _compare(printed: ThreadHistogram, log: ThreadLog, name: str, label: str, problems: list[str]) -> None:
    """The histogram cyclictest printed against the samples it logged: they
    differ when the log lost lines (cyclictest's buffer holds 16384 samples).
    Its Avg is the samples' mean truncated to a whole us."""
    logged = (log.samples, log.minimum, log.maximum, log.moments.total // (log.samples * US) if log.samples else 0)
    if (printed.histogram.samples, printed.min * US, printed.max * US, printed.avg) != logged:
        problems.append(
            f"{name}: {label}: the printed histogram (samples, min, max, Avg {printed.histogram.samples}, "
            f"{printed.min}, {printed.max}, {printed.avg} us) differs from the log's; the log's samples are used"
        )
