"""cyclictest's `--json=FILE` (rt-tests 2.x, "file_version": 1):

    {"file_version": 1, "cmdline:": "cyclictest -p80 ...", "rt_test_version:": "2.40",
     "start_time": "...", "end_time": "...", "return_code": 0, "sysinfo": {...},
     "num_threads": 2, "resolution_in_ns": 0,
     "thread": {"0": {"histogram": {"8": 5, "9": 14, ...}, "cycles": 500,
                      "min": 8, "max": 747, "avg": 16.48, "cpu": 0, "node": 0}, ...}}

Two keys end in a colon, as rt-tests writes them. The histogram lists only
buckets that are not empty and leaves the overflow out: it is the cycles less
the histogram's samples. The unit (us, or ns with -N) and the histogram's
size come from the command line; a -N histogram's 1 ns buckets are grouped
into 1 us buckets once the mean and standard deviation are taken from them.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from fractions import Fraction

from portkit.commands.rt.importers import model
from portkit.commands.rt.importers.cyclictest_command import CyclictestOptions, parse_command
from portkit.commands.rt.importers.text import MAX_DIGITS, bad, in_ns
from portkit.commands.rt.stats import Histogram, histogram_moments, regroup, round_half_up
from portkit.core.output import count

US = 1000
MAX_BUCKETS = 1_000_000  # cyclictest's own cap on -h
AVG_PRINTED_DIGITS = Fraction(1, 200)  # "avg" has two decimals: half a hundredth either way


def read(text: str, name: str, problems: list[str]) -> list[dict]:
    data = _load(text, name)
    command = _first(data, "cmdline:", "cmdline")
    if command is not None and not isinstance(command, str):
        raise bad(name, None, "'cmdline:' is not a string")
    options = parse_command(command) if command else None
    if options is None:
        problems.append(f"{name}: no command line recorded: microseconds assumed, loops and interval unknown")
    unit_ns = 1 if options is not None and options.nsecs else US
    threads_data = data.get("thread")
    if not isinstance(threads_data, dict):
        raise bad(name, None, "no 'thread' object: not a cyclictest JSON file")
    threads = []
    cpus = set()
    for key in sorted(threads_data, key=_thread_number(name)):
        entry = threads_data[key]
        label = f'thread "{key}"'
        if not isinstance(entry, dict):
            raise bad(name, None, f"{label} is not an object")
        cpu = _integer(entry, "cpu", name, label, allow_negative=True, required=False)
        cpu = cpu if cpu is not None and cpu >= 0 else None
        if cpu is not None:
            cpus.add(cpu)
        stats = _thread_stats(entry, options, unit_ns, name, label, problems)
        threads.append(model.thread(cpu, stats))
    cycles = [thread["samples"] for thread in threads]
    return_code = data.get("return_code")
    if isinstance(return_code, int) and return_code != 0:
        problems.append(f"{name}: cyclictest returned {return_code}")
    return [
        model.document(
            source=model.source(
                "cyclictest",
                "json",
                name,
                command,
                version=_text(data, "rt_test_version:", "rt_test_version"),
                start_time=_text(data, "start_time"),
                end_time=_text(data, "end_time"),
                system=_system(data.get("sysinfo")),
            ),
            config=_config(options, sorted(cpus)),
            threads=threads,
            stopped=_stopped(options, cycles, data),
        )
    ]


def _load(text: str, name: str) -> dict:
    def no_constants(constant: str) -> None:
        raise ValueError(f"{constant} is not a number")

    try:
        data = json.loads(text, parse_constant=no_constants)
    except json.JSONDecodeError as err:
        raise bad(name, err.lineno, f"invalid JSON: {err.msg}") from None
    except (ValueError, RecursionError) as err:
        raise bad(name, None, f"invalid JSON: {err}") from None
    if not isinstance(data, dict):
        raise bad(name, None, "not a JSON object: not a cyclictest JSON file")
    return data


def _system(sysinfo: object) -> dict | None:
    """uname's fields and whether the kernel is PREEMPT_RT, as rt-tests wrote them."""
    if not isinstance(sysinfo, dict):
        return None
    return {k: v for k, v in sysinfo.items() if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))}


def _first(data: dict, *keys: str) -> object:
    return next((data[key] for key in keys if key in data), None)


def _text(data: dict, *keys: str) -> str | None:
    value = _first(data, *keys)
    return value if isinstance(value, str) else None


def _thread_number(name: str):
    def number(key: str) -> int:
        if not (key.isascii() and key.isdigit() and len(key) <= 6):
            raise bad(name, None, f'thread "{key[:20]}": the key is not a thread number')
        return int(key)

    return number


def _integer(
    entry: dict, key: str, name: str, label: str, *, allow_negative: bool = False, required: bool = True
) -> int | None:
    value = entry.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not allow_negative):
        raise bad(name, None, f"{label}: '{key}' is not a whole number")
    if len(str(abs(value))) > MAX_DIGITS:
        raise bad(name, None, f"{label}: '{key}' is too large")
    return value


def _histogram(entry: dict, name: str, label: str) -> dict[int, int]:
    raw = entry.get("histogram", {})
    if not isinstance(raw, dict):
        raise bad(name, None, f"{label}: 'histogram' is not an object")
    counts: dict[int, int] = {}
    for key in raw:
        if not (key.isascii() and key.isdigit() and len(key) <= MAX_DIGITS and int(key) < MAX_BUCKETS):
            raise bad(name, None, f"{label}: histogram bucket {key[:20]!r} is not a bucket number")
        counts[int(key)] = _integer(raw, key, name, f"{label} histogram") or 0
    return counts


def _thread_stats(
    entry: dict, options: CyclictestOptions | None, unit_ns: int, name: str, label: str, problems: list[str]
) -> dict:
    cycles = _integer(entry, "cycles", name, label) or 0
    minimum = _integer(entry, "min", name, label)
    maximum = _integer(entry, "max", name, label)
    avg = entry.get("avg")
    if isinstance(avg, bool) or not isinstance(avg, int | float) or not math.isfinite(avg) or avg < 0:
        raise bad(name, None, f"{label}: 'avg' is not a number")
    if avg >= 2**53:
        raise bad(name, None, f"{label}: 'avg' is too large")
    sparse = _histogram(entry, name, label)
    has_histogram = bool(sparse) or (options is not None and bool(options.histogram_buckets))
    mean_ns = round_half_up(Fraction(str(avg)) * unit_ns)
    stddev_ns = None
    histogram = None
    if has_histogram:
        buckets = max((options.histogram_buckets or 0) if options else 0, max(sparse, default=-1) + 1)
        counts = [0] * buckets
        for index, samples in sparse.items():
            counts[index] = samples
        overflow = cycles - sum(counts)
        if overflow < 0:
            problems.append(
                f"{name}: {label}: the histogram holds {count(sum(counts), 'sample')}, "
                f"more than {count(cycles, 'cycle')}"
            )
            overflow = 0
        overflow_max = in_ns(maximum or 0, unit_ns, name, None, "max") if overflow else None
        histogram = Histogram(unit_ns, counts, overflow, overflow_max)
        if overflow == 0 and cycles:
            moments = histogram_moments(histogram)
            mean_ns, stddev_ns = moments.mean_ns(), moments.stddev_ns()
            if abs(Fraction(moments.total, cycles * unit_ns) - Fraction(str(avg))) > AVG_PRINTED_DIGITS:
                problems.append(f"{name}: {label}: the histogram's mean differs from 'avg' {avg}")
        if unit_ns != US:  # -N: a million 1 ns buckets say no more than a thousand 1 us ones here
            histogram = regroup(histogram, US) or histogram
    return model.latency_stats(
        samples=cycles,
        min_ns=in_ns(minimum or 0, unit_ns, name, None, "min"),
        max_ns=in_ns(maximum or 0, unit_ns, name, None, "max"),
        mean_ns=mean_ns,
        stddev_ns=stddev_ns,
        histogram=histogram,
    )


def _config(options: CyclictestOptions | None, cpus: list[int]) -> dict:
    if options is None:
        return model.config(cpus=cpus or None)
    return model.config(
        interval_us=options.interval_us,
        distance_us=options.distance_us,
        priority=options.priority,
        policy=options.policy,
        cpus=cpus or options.cpus,
        loops=options.loops or None,
        duration_s=options.duration_s,
        bucket_ns=US if options.histogram_buckets else None,
    )


def _stopped(options: CyclictestOptions | None, cycles: list[int], data: dict) -> str:
    """Completed when a thread reached -l (cyclictest stops them all at the
    first), or the run lasted -D; a run without either only ends by a signal."""
    if options is None:
        return "unknown"
    if options.loops:
        return "completed" if max(cycles, default=0) >= options.loops else "interrupted"
    if options.duration_s:
        lasted = _seconds_between(_text(data, "start_time"), _text(data, "end_time"))
        if lasted is None:
            return "unknown"
        return "completed" if lasted + 1 >= options.duration_s else "interrupted"  # whole-second stamps
    return "interrupted"


def _seconds_between(start: str | None, end: str | None) -> int | None:
    try:
        first = datetime.strptime(start or "", "%a, %d %b %Y %H:%M:%S %z")
        last = datetime.strptime(end or "", "%a, %d %b %Y %H:%M:%S %z")
    except ValueError:
        return None
    return int((last - first).total_seconds())
