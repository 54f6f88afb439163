"""Which format a file is in, from its content: the first line that only one
format writes decides."""

from __future__ import annotations

import re

from portkit.commands.rt.importers.cyclictest_histogram import TITLE as HISTOGRAM_TITLE
from portkit.commands.rt.importers.cyclictest_lines import SUMMARY
from portkit.commands.rt.importers.cyclictest_verbose import RUN_START, SAMPLE
from portkit.commands.rt.importers.rtla_timerlat_hist import TITLE as RTLA_TITLE
from portkit.commands.rt.importers.text import bad, decode, split_lines

HEAD_BYTES = 64 * 1024  # a verbose log shows itself in its first lines; it is read as a stream
RTLA_COLUMNS = re.compile(r"^Index(\s+(IRQ|Thr|Usr)-\d+)+\s*$")


def detect(text: str, name: str, whole: bool = True) -> str:
    """The input format of `text` (the file, or its head when `whole` is False)."""
    stripped = text.lstrip()
    if not stripped:
        raise bad(name, None, "empty file")
    if "\0" in text:
        raise bad(name, None, "binary data, not a cyclictest or rtla output")
    if stripped.startswith("{"):
        return "cyclictest-json"
    summary_seen = False
    for raw in split_lines(text):
        line = decode(raw).strip()
        if line == RTLA_TITLE or RTLA_COLUMNS.match(line) or line.startswith("over:"):
            return "rtla-timerlat-hist"
        if RUN_START.match(line) or SAMPLE.match(line):
            return "cyclictest-verbose"
        if line == HISTOGRAM_TITLE:
            return "cyclictest-histogram"
        summary_seen = summary_seen or SUMMARY.match(line) is not None
    if summary_seen:
        return "cyclictest-summary"
    if not whole:
        return "cyclictest-summary"  # undecided in the head: the caller reads the whole file and asks again
    raise bad(
        name,
        None,
        "not a cyclictest or rtla output: no JSON, '# Histogram', 'thread:cycle:latency', 'T: 0 (...)' "
        "or rtla timerlat hist lines",
    )
