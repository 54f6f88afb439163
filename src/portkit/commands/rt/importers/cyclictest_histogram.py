"""cyclictest's histogram (`-h US`, `-H US`, on stdout or in `--histfile`):

    # Histogram
    000000 000000	000000          bucket (us), one count per thread [, all threads with -H]
    ...
    # Total: 000001999 000002000      in the buckets, not the overflow (older versions omit it)
    # Min Latencies: 00006 00006
    # Avg Latencies: 00019 00015      the mean over all samples, truncated to whole us
    # Max Latencies: 03339 00380
    # Histogram Overflows: 00001 00000
    # Histogram Overflow at cycle number:
    # Thread 0: 01589                 at most US cycles, then `# 01995 others`
    # Thread 1:

cyclictest counts whole microseconds (the wake-up delay truncated), so bucket
i holds samples of exactly i us: with no overflow the histogram gives the
exact mean and standard deviation of what cyclictest measured. Some versions
print only the buckets that are not empty in any thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from portkit.commands.rt.importers import model
from portkit.commands.rt.importers.cyclictest_lines import SummaryLine, is_chatter, policy_of, summary_line
from portkit.commands.rt.importers.text import Line, Lines, bad, in_ns, shown, whole_number
from portkit.commands.rt.stats import Histogram, histogram_moments
from portkit.core.output import count

US = 1000
MAX_BUCKETS = 1_000_000  # cyclictest's own cap on -h; a larger bucket is a damaged line

TITLE = "# Histogram"
ROW = re.compile(r"^(\d+)[ \t]+(\d+(?:[ \t]+\d+)*)[ \t]*$")
FOOTER = re.compile(r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows|SMIs):[ \t]*(.*)$")
CYCLES_TITLE = "# Histogram Overflow at cycle number:"
CYCLES = re.compile(r"^# Thread (\d+):[ \t]*([\d \t]*?)[ \t]*(?:# (\d+) others)?[ \t]*$")
REQUIRED = ("Min Latencies", "Avg Latencies", "Max Latencies", "Histogram Overflows")
BREAK = re.compile(r"^# (Thread Ids|Break thread|Break value):")  # -b (breaktrace) ends with these


@dataclass
class ThreadHistogram:
    """One thread's column and footer figures, in the run's unit."""

    histogram: Histogram
    total: int | None
    min: int
    avg: int
    max: int


@dataclass
class HistogramSection:
    """The lines from `# Histogram` to the overflow cycles, fed one at a time."""

    name: str
    title: Line
    rows: list[tuple[Line, int, list[int]]] = field(default_factory=list)
    footers: dict[str, tuple[Line, list[int]]] = field(default_factory=dict)
    cycles: dict[int, tuple[list[int], int]] = field(default_factory=dict)
    last: Line | None = None

    def feed(self, line: Line) -> bool:
        """Takes the line if it belongs to the histogram; False if it does not."""
        text = line.text
        if not text.strip():
            return True
        row = ROW.match(text)
        if row is not None:
            if self.footers:
                raise bad(self.name, line, "a histogram row after the histogram's footer")
            self._row(line, row)
        elif (footer := FOOTER.match(text)) is not None:
            values = [whole_number(v, self.name, line, footer[1]) for v in footer[2].split()]
            self.footers[footer[1]] = (line, values)
        elif text.startswith(CYCLES_TITLE):
            pass
        elif (cycles := CYCLES.match(text)) is not None and self.footers:
            thread = whole_number(cycles[1], self.name, line, "thread")
            listed = [whole_number(v, self.name, line, "cycle") for v in cycles[2].split()]
            unlisted = whole_number(cycles[3], self.name, line, "others") if cycles[3] else 0
            self.cycles[thread] = (listed, unlisted)
        else:
            return False
        self.last = line
        return True

    def _row(self, line: Line, row: re.Match[str]) -> None:
        index = whole_number(row[1], self.name, line, "bucket")
        if index >= MAX_BUCKETS:
            raise bad(self.name, line, f"bucket {index} is beyond any cyclictest histogram (at most {MAX_BUCKETS} us)")
        if self.rows and index <= self.rows[-1][1]:
            raise bad(self.name, line, f"bucket {index} comes after bucket {self.rows[-1][1]}")
        counts = [whole_number(v, self.name, line, "count") for v in row[2].split()]
        if self.rows and len(counts) != len(self.rows[0][2]):
            raise bad(
                self.name, line, f"{count(len(counts), 'column')} where the rows above have {len(self.rows[0][2])}"
            )
        self.rows.append((line, index, counts))

    def threads(self, cut: Line | None, problems: list[str]) -> list[ThreadHistogram]:
        """Each thread's histogram and figures; the footer must be there."""
        missing = [key for key in REQUIRED if key not in self.footers]
        if missing:
            where = cut or self.last or self.title
            raise bad(self.name, where, f"the histogram stops before its '# {missing[0]}:' line (file cut short?)")
        mins = self.footers["Min Latencies"][1]
        n = len(mins)
        if n == 0:
            raise bad(self.name, self.footers["Min Latencies"][0], "no threads in '# Min Latencies:'")
        width = len(self.rows[0][2]) if self.rows else n
        if width not in (n, n + 1) or (width == n + 1 and n == 1):
            raise bad(self.name, self.rows[0][0], f"{count(width, 'column')} for {count(n, 'thread')}")
        for key, allowed in (
            ("Avg Latencies", (n,)),
            ("Max Latencies", (n, width)),
            ("Histogram Overflows", (n, width)),
            ("Total", (n, width)),
        ):
            if key in self.footers and len(self.footers[key][1]) not in allowed:
                line, values = self.footers[key]
                raise bad(self.name, line, f"'# {key}:' has {count(len(values), 'value')} for {count(n, 'thread')}")
        buckets = self.rows[-1][1] + 1 if self.rows else 0
        columns = [[0] * buckets for _ in range(width)]
        for _, index, counts in self.rows:
            for column, samples in zip(columns, counts, strict=True):
                column[index] = samples
        if width == n + 1:
            self._check_all_threads_column(columns, problems)
        result = []
        for j in range(n):
            overflow = self.footers["Histogram Overflows"][1][j]
            listed, unlisted = self.cycles.get(j, (None, None))  # None: the file lacks the thread's line
            extra = {"overflow_cycles": listed, "overflow_cycles_unlisted": unlisted}
            maximum = self.footers["Max Latencies"][1][j]
            overflow_max = in_ns(maximum, US, self.name, None, "max") if overflow else None
            histogram = Histogram(US, columns[j], overflow, overflow_max, extra)
            total = self.footers["Total"][1][j] if "Total" in self.footers else None
            if total is not None and total != sum(columns[j]):
                problems.append(
                    f"{self.name}:{self.footers['Total'][0].number}: thread {j}'s buckets hold "
                    f"{count(sum(columns[j]), 'sample')}, its '# Total:' says {total}"
                )
            result.append(ThreadHistogram(histogram, total, mins[j], self.footers["Avg Latencies"][1][j], maximum))
        return result

    def _check_all_threads_column(self, columns: list[list[int]], problems: list[str]) -> None:
        sums = [sum(counts) for counts in zip(*columns[:-1], strict=True)]
        if sums != columns[-1]:
            problems.append(f"{self.name}:{self.title.number}: the all-threads column (-H) is not the threads' sum")


def thread_stats(figures: ThreadHistogram, name: str, problems: list[str], label: str) -> dict:
    """The model's statistics for one thread: exact from the histogram when
    nothing overflowed, else cyclictest's own truncated average and no
    standard deviation (the overflowed samples' values are not in the file)."""
    histogram = figures.histogram
    n = histogram.samples
    mean_ns: int | None = in_ns(figures.avg, US, name, None, "avg")
    stddev_ns: int | None = None
    if histogram.overflow == 0 and n:
        moments = histogram_moments(histogram)
        mean_ns, stddev_ns = moments.mean_ns(), moments.stddev_ns()
        if Fraction(moments.total, n * US) // 1 != figures.avg:
            problems.append(
                f"{name}: {label}: the buckets' mean {float(Fraction(moments.total, n * US)):.2f} "
                f"does not truncate to the Avg {figures.avg} cyclictest printed"
            )
    return model.latency_stats(
        samples=n,
        min_ns=in_ns(figures.min, US, name, None, "min"),
        max_ns=in_ns(figures.max, US, name, None, "max"),
        mean_ns=mean_ns,
        stddev_ns=stddev_ns,
        histogram=histogram,
    )


@dataclass
class Run:
    """One cyclictest run of a histogram file: the histogram and what the
    lines around it say."""

    section: HistogramSection | None = None
    summaries: dict[int, SummaryLine] = field(default_factory=dict)
    policy: str | None = None
    broke: str | None = None


def read(lines: Lines, name: str, problems: list[str]) -> list[dict]:
    """The documents of a histogram file: one per `# Histogram` it holds."""
    runs: list[Run] = []
    run = Run()
    for line in lines:
        if line.text.strip() == TITLE:
            if run.section is not None:
                runs.append(run)
                run = Run()
            run.section = HistogramSection(name, line)
        elif run.section is not None and run.section.feed(line):
            pass
        else:
            _around(run, line, name)
    runs.append(run)
    if runs[0].section is None:
        raise bad(name, None, f"no '{TITLE}' line: not a cyclictest histogram")
    return [_document(r, name, lines.cut if r is runs[-1] else None, problems) for r in runs]


def _around(run: Run, line: Line, name: str) -> None:
    """A line outside the histogram: a summary, the policy, -b's report, or chatter."""
    text = line.text
    if (summary := summary_line(line, name)) is not None:
        run.summaries[summary.thread] = summary
    elif (policy := policy_of(text)) is not None:
        run.policy = policy
    elif BREAK.match(text):
        if text.startswith("# Break value:"):
            run.broke = text[2:]
    elif not is_chatter(text) and not text.startswith("# "):
        raise bad(name, line, f"expected a histogram row ('000012 000034'), got {shown(text)}")


def _document(run: Run, name: str, cut: Line | None, problems: list[str]) -> dict:
    assert run.section is not None
    stopped = "unknown"
    if cut is not None:  # past the required footer (else threads() fails): only overflow cycles are lost
        problems.append(f"{name}:{cut.number}: the last line is cut short ({shown(cut.text)}); it is left out")
    figures = run.section.threads(cut, problems)
    threads = []
    for j, figure in enumerate(figures):
        stats = thread_stats(figure, name, problems, f"thread {j}")
        threads.append(model.thread(None, stats))
    if run.broke:
        problems.append(f"{name}: cyclictest stopped at its -b (breaktrace) limit: {run.broke}")
        stopped = "interrupted"
    first = run.summaries.get(0)
    return model.document(
        source=model.source("cyclictest", "histogram", name),
        config=model.config(
            interval_us=first.interval_us if first else None,
            distance_us=0,  # with a histogram every thread has the same interval
            priority=first.priority if first else None,
            policy=run.policy,
            bucket_ns=US,
        ),
        threads=threads,
        stopped=stopped,
    )
