"""cyclictest's per-thread summary lines alone: `-q` prints them once at the
end, the live screen (neither -q nor -v) again and again; the last line of
each thread counts:

    T: 0 (23787) P:80 I:1000 C:   2000 Min:      7 Act:   26 Avg:   16 Max:    1304

No histogram and no samples: the mean is cyclictest's, truncated to a whole
us; no standard deviation or percentiles.
"""

from __future__ import annotations

from portkit.commands.rt.importers import model
from portkit.commands.rt.importers.cyclictest_lines import SummaryLine, is_chatter, policy_of, summary_line
from portkit.commands.rt.importers.text import Lines, bad, in_ns, shown

US = 1000


def read(lines: Lines, name: str, problems: list[str]) -> list[dict]:
    summaries: dict[int, SummaryLine] = {}
    policy: str | None = None
    for line in lines:
        if (summary := summary_line(line, name)) is not None:
            summaries[summary.thread] = summary
        elif (found := policy_of(line.text)) is not None:
            policy = found
        elif not is_chatter(line.text) and not line.text.startswith("# "):
            raise bad(name, line, f"expected a summary line ('T: 0 (pid) P:80 I:1000 C: ...'), got {shown(line.text)}")
    stopped = "unknown"
    if lines.cut is not None:
        problems.append(f"{name}:{lines.cut.number}: the last line is cut short ({shown(lines.cut.text)}); left out")
        stopped = "interrupted"
    if not summaries:
        raise bad(name, None, "no summary lines ('T: 0 (pid) P:80 I:1000 C: ...')")
    threads = [model.thread(None, _stats(summaries[t], name)) for t in sorted(summaries)]
    ordered = [summaries[t] for t in sorted(summaries)]
    return [
        model.document(
            source=model.source("cyclictest", "summary", name),
            config=model.config(
                interval_us=ordered[0].interval_us,
                distance_us=ordered[1].interval_us - ordered[0].interval_us if len(ordered) > 1 else None,
                priority=ordered[0].priority,
                policy=policy,
            ),
            threads=threads,
            stopped=stopped,
        )
    ]


def _stats(summary: SummaryLine, name: str) -> dict:
    line = summary.line
    return model.latency_stats(
        samples=summary.cycles,
        min_ns=in_ns(summary.min, US, name, line, "Min"),
        max_ns=in_ns(summary.max, US, name, line, "Max"),
        mean_ns=in_ns(summary.avg, US, name, line, "Avg"),
        stddev_ns=None,
        histogram=None,
    )
