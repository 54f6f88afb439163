"""Lines every cyclictest output may hold besides its data: the per-thread
summary (`T: 0 ( pid) P:80 I:1000 C: 5000 Min: ... Max: ...`), the live
screen's policy line, and the notes it prints on the way."""

from __future__ import annotations

import re
from dataclasses import dataclass

from portkit.commands.rt.importers.text import Line, bad, whole_number

SUMMARY = re.compile(
    r"^T:\s*(?P<thread>\d+)\s+\(\s*(?P<tid>\d+)\)\s+P:\s*(?P<priority>\d+)\s+I:\s*(?P<interval>\d+)"
    r"\s+C:\s*(?P<cycles>\d+)\s+Min:\s*(?P<min>-?\d+)\s+Act:\s*(?P<act>-?\d+)\s+Avg:\s*(?P<avg>-?\d+)"
    r"\s+Max:\s*(?P<max>-?\d+)(?:\s+SMI:\s*\d+)?\s*$"
)
POLICY = re.compile(r"^policy:\s*(?P<policy>[a-z/]+):\s*loadavg:")
CHATTER = (
    "WARN:",  # cyclictest's warnings, when stderr went to the same file
    "INFO:",
    "DEBUG:",
    "policy and priority don't match",
    "defaulting realtime priority to",
    "Delaying ",
    "Delay progress:",
)
TRIGGER = re.compile(r"^(T:\s*\d+\s+Spike:|spikes = \d+$)")  # --spike's report


@dataclass(frozen=True)
class SummaryLine:
    thread: int
    priority: int
    interval_us: int
    cycles: int
    min: int  # in the run's unit (us, or ns with -N)
    avg: int  # truncated toward zero by cyclictest
    max: int
    line: Line


def summary_line(line: Line, name: str) -> SummaryLine | None:
    """The `T:` line's figures, or None when the line is not one."""
    match = SUMMARY.match(line.text)
    if match is None:
        return None
    values = {
        key: whole_number(match[key].lstrip("-"), name, line, key)
        for key in ("thread", "priority", "interval", "cycles", "min", "avg", "max")
    }
    if any(match[key].startswith("-") for key in ("min", "avg", "max")):
        raise bad(name, line, "negative latency: the clock went backwards")
    return SummaryLine(
        values["thread"],
        values["priority"],
        values["interval"],
        values["cycles"],
        values["min"],
        values["avg"],
        values["max"],
        line,
    )


def is_chatter(text: str) -> bool:
    """A line cyclictest prints that carries no measurement."""
    stripped = text.strip()
    return (
        not stripped
        or stripped.startswith(CHATTER)
        or stripped.startswith("# /dev/cpu_dma_latency")
        or TRIGGER.match(stripped) is not None
    )


def policy_of(text: str) -> str | None:
    """`policy: fifo: loadavg: ...` (the live screen) -> "fifo"."""
    match = POLICY.match(text)
    return match["policy"] if match else None
