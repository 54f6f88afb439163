"""The run's settings from a recorded cyclictest command line (rt-tests 2.x
writes it into its JSON file as "cmdline:"). Options are read as cyclictest's
getopt reads them; one it does not know is passed over."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

# What takes a value: cyclictest 2.x's option table (its --help lists them).
SHORT_WITH_VALUE = set("bcdDFhHilop")
SHORT_OPTIONAL_VALUE = set("aAt")  # attached, or the next word when it looks like one (not consumed)
LONG_WITH_VALUE = {
    "breaktrace", "clock", "distance", "duration", "latency", "fifo", "histogram", "histofall", "histfile",
    "interval", "json", "loops", "mainaffinity", "oscope", "priority", "spike", "spike-nodes", "policy",
    "deepest-idle-state", "delay",
}  # fmt: skip
LONG_OPTIONAL_VALUE = {"affinity", "aligned", "secaligned", "threads"}
SHORT_NAMES = {
    "a": "affinity", "d": "distance", "D": "duration", "h": "histogram", "H": "histofall", "i": "interval",
    "l": "loops", "N": "nsecs", "p": "priority", "t": "threads", "S": "smp", "v": "verbose", "q": "quiet",
}  # fmt: skip
DURATION_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
HIST_MAX = 1_000_000  # cyclictest lowers a larger -h to this
LEADING_NUMBER = re.compile(r"^\s*(\d{1,15})")


@dataclass
class CyclictestOptions:
    interval_us: int = 1000  # cyclictest's defaults
    distance_us: int = 500
    priority: int | None = None
    policy: str | None = None
    cpus: list[int] | None = None
    loops: int = 0  # 0: until stopped
    duration_s: int | None = None
    histogram_buckets: int | None = None
    nsecs: bool = False


def parse_command(command: str) -> CyclictestOptions | None:
    """The settings, or None when the line cannot be split into words."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    found: dict[str, str | None] = {}
    i = 1
    while i < len(words):
        word = words[i]
        i += 1
        if word.startswith("--") and len(word) > 2:
            name, equals, value = word[2:].partition("=")
            if name in LONG_WITH_VALUE and not equals and i < len(words):
                value, i = words[i], i + 1
            elif name in LONG_OPTIONAL_VALUE and not equals:
                value = _peek(words, i)
            found[name] = value if (equals or name in LONG_WITH_VALUE | LONG_OPTIONAL_VALUE) else None
        elif word.startswith("-") and len(word) > 1:
            for position, letter in enumerate(word[1:], start=1):
                rest = word[position + 1 :]
                long_name = SHORT_NAMES.get(letter, letter)
                if letter in SHORT_WITH_VALUE:
                    if not rest and i < len(words):
                        rest, i = words[i], i + 1
                    found[long_name] = rest
                    break
                if letter in SHORT_OPTIONAL_VALUE:
                    found[long_name] = rest or _peek(words, i)
                    break
                found[long_name] = None
    return _options(found)


def _peek(words: list[str], i: int) -> str | None:
    """cyclictest looks at the next word for -a, -t and the like without taking it."""
    return words[i] if i < len(words) and re.match(r"^[\d!+]", words[i]) else None


def _number(value: str | None) -> int | None:
    match = LEADING_NUMBER.match(value or "")
    return int(match[1]) if match else None


def cpu_list(value: str | None) -> list[int] | None:
    """ "0-3,5" -> [0, 1, 2, 3, 5]; None for forms relative to the current set."""
    if not value or not re.fullmatch(r"\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?)*", value):
        return None
    cpus: set[int] = set()
    for part in value.split(","):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return sorted(cpus)


def duration_seconds(value: str | None) -> int | None:
    match = re.fullmatch(r"(\d{1,12})([smhdSMHD]?)", value or "")
    return int(match[1]) * DURATION_UNITS[match[2].lower()] if match else None


def _options(found: dict[str, str | None]) -> CyclictestOptions:
    options = CyclictestOptions()
    options.interval_us = _number(found.get("interval")) or options.interval_us
    distance = _number(found.get("distance"))
    options.distance_us = distance if distance is not None else options.distance_us
    options.priority = _number(found.get("priority"))
    options.policy = found.get("policy") or ("fifo" if options.priority else None)
    options.cpus = cpu_list(found.get("affinity"))
    options.loops = _number(found.get("loops")) or 0
    options.duration_s = duration_seconds(found.get("duration"))
    buckets = _number(found.get("histogram") or found.get("histofall"))
    options.histogram_buckets = min(buckets, HIST_MAX) if buckets is not None else None
    options.nsecs = "nsecs" in found
    if options.histogram_buckets:
        options.distance_us = 0  # cyclictest ignores -d with a histogram
    return options
