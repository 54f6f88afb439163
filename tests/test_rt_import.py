"""portkit.commands.rt.importers on real cyclictest outputs (tests/data/rt,
recorded here) and on rtla timerlat hist fixtures (tests/data/rt/rtla): what
the importer computes equals what cyclictest printed for the same run, within
cyclictest's own rounding, and numpy's figures for the same samples. Damaged
files give one error line or a sound partial result, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy
import pytest

from portkit.commands.rt.importers import INPUT_FORMATS, import_file, import_text
from portkit.commands.rt.stats import PERCENTILES
from portkit.core.errors import BadInput
from rt_samples import (
    DATA,
    HISTOGRAMS,
    JSONS,
    NOT_RESULTS,
    NUMPY_Q_NUDGE,
    RTLA,
    RTLA_READABLE,
    SUMMARIES,
    US,
    VERBOSE,
    imported,
)


def footer(path: Path) -> dict[str, list[int]]:
    """The histogram footer lines, read here with a regex of their own."""
    found = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows): (.*)$", line)
        if match:
            found[match[1]] = [int(v) for v in match[2].split()]
    return found


def rows(path: Path) -> list[list[int]]:
    return [[int(v) for v in line.split()] for line in path.read_text().splitlines() if re.match(r"^\d+ ", line)]


def numpy_percentiles(values: numpy.ndarray, bucket_ns: int, limit_ns: int) -> dict[str, int]:
    result = {}
    for name in PERCENTILES:
        value = int(numpy.percentile(values, float(name) - NUMPY_Q_NUDGE, method="inverted_cdf"))
        edge = int(values.max()) if value >= limit_ns else (value // bucket_ns + 1) * bucket_ns
        result[name] = min(edge, int(values.max()))  # a percentile is never above the largest sample
    return result


# --- cyclictest histograms ---------------------------------------------------------------------


@pytest.mark.parametrize("name", HISTOGRAMS)
def test_histogram_totals_and_extremes_are_cyclictests(name: str) -> None:
    document = imported(DATA / name)
    figures = footer(DATA / name)
    assert document["source"]["format"] == "histogram" and document["config"]["bucket_ns"] == US
    assert len(document["threads"]) == len(figures["Min Latencies"])
    for j, thread in enumerate(document["threads"]):
        overflow = figures["Histogram Overflows"][j]
        assert thread["samples"] == figures["Total"][j] + overflow
        assert thread["min_ns"] == figures["Min Latencies"][j] * US
        assert thread["max_ns"] == figures["Max Latencies"][j] * US
        assert thread["histogram"]["overflow"] == overflow
        # cyclictest's Avg is the mean truncated to a whole us (all samples, overflow too).
        assert figures["Avg Latencies"][j] * US <= thread["mean_ns"] < (figures["Avg Latencies"][j] + 1) * US


@pytest.mark.parametrize("name", HISTOGRAMS)
def test_histogram_statistics_are_numpys_over_the_rows(name: str) -> None:
    document = imported(DATA / name)
    table = rows(DATA / name)
    figures = footer(DATA / name)
    for j, thread in enumerate(document["threads"]):
        counts = [row[1 + j] for row in table]
        assert thread["histogram"]["counts"] == counts
        values = numpy.repeat(numpy.array([row[0] for row in table]) * US, counts)
        overflow = figures["Histogram Overflows"][j]
        if overflow:
            assert thread["stddev_ns"] is None  # the overflowed samples' values are not in the file
            values = numpy.concatenate([values, numpy.full(overflow, figures["Max Latencies"][j] * US)])
        else:
            assert abs(thread["mean_ns"] - values.mean()) <= 0.5
            assert abs(thread["stddev_ns"] - values.std()) <= 0.5
        # Every rank in the overflow is the max: filling it with the max gives numpy the same answer.
        assert thread["percentiles_ns"] == numpy_percentiles(values, US, len(counts) * US)


def test_histogram_keeps_the_overflow_cycles() -> None:
    threads = imported(DATA / "hist-h5-overflows.txt")["threads"]
    assert threads[0]["histogram"]["overflow_cycles"] == [0, 1, 2, 3, 4]
    assert threads[0]["histogram"]["overflow_cycles_unlisted"] == 1995
    assert threads[0]["percentiles_ns"]["50"] == threads[0]["max_ns"]  # every sample overflowed
    affinity = imported(DATA / "hist-affinity-a1.txt")["threads"]
    assert affinity[1]["histogram"]["overflow_cycles"] == [253, 437, 858, 866, 1345, 1547, 2400, 3077]


# --- cyclictest JSON ---------------------------------------------------------------------------


def test_json_and_the_same_runs_text_histogram_agree() -> None:
    from_json = imported(DATA / "json-h400.json")
    from_text = imported(DATA / "json-h400.stdout.txt")
    keys = ("samples", "min_ns", "max_ns", "mean_ns", "stddev_ns", "percentiles_ns")
    for a, b in zip(from_json["threads"], from_text["threads"], strict=True):
        assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
        assert a["histogram"]["counts"] == b["histogram"]["counts"]
    assert [t["cpu"] for t in from_json["threads"]] == [0, 1]
    assert from_json["config"] | {"cpus": None} == {
        "interval_us": 1000,
        "distance_us": 0,
        "priority": 80,
        "policy": "fifo",
        "cpus": None,
        "loops": 2000,
        "duration_s": None,
        "bucket_ns": US,
    }
    assert from_json["stopped"] == "completed"
    assert from_json["source"]["command"].startswith("cyclictest -m -p80 -t2")
    assert from_json["source"]["version"] == "2.40"


@pytest.mark.parametrize(
    "json_name, summary_name, stopped",
    [
        ("json-nohist.json", "json-nohist.stdout.txt", "completed"),
        ("json-sigint.json", "json-sigint.stdout.txt", "interrupted"),
    ],
)
def test_json_without_histogram_matches_the_same_runs_summary(json_name: str, summary_name: str, stopped: str) -> None:
    from_json = imported(DATA / json_name)
    summary = imported(DATA / summary_name)
    assert from_json["stopped"] == stopped
    for a, b in zip(from_json["threads"], summary["threads"], strict=True):
        assert (a["samples"], a["min_ns"], a["max_ns"]) == (b["samples"], b["min_ns"], b["max_ns"])
        # JSON's avg has two decimals, the summary's Avg is truncated to a whole us.
        assert b["mean_ns"] <= a["mean_ns"] < b["mean_ns"] + US
        assert a["histogram"] is None and a["percentiles_ns"] is None and a["stddev_ns"] is None
    assert summary["config"]["interval_us"] == 1000 and summary["config"]["distance_us"] == 500


def test_json_in_nanoseconds() -> None:
    document = imported(DATA / "json-nsecs.json")
    raw = json.loads((DATA / "json-nsecs.json").read_text())["thread"]["0"]
    thread = document["threads"][0]
    assert (thread["min_ns"], thread["max_ns"], thread["cpu"]) == (raw["min"], raw["max"], 1)
    assert thread["mean_ns"] == round(raw["avg"])
    histogram = thread["histogram"]  # 200000 buckets of 1 ns, regrouped into 200 of 1 us
    assert histogram["bucket_ns"] == US and len(histogram["counts"]) == 200
    assert histogram["overflow"] == raw["cycles"] - sum(raw["histogram"].values()) == 1
    assert histogram["overflow_max_ns"] == raw["max"]
    values = numpy.repeat([int(k) for k in raw["histogram"]], list(raw["histogram"].values()))
    values = numpy.concatenate([values, [raw["max"]]])
    assert thread["percentiles_ns"] == numpy_percentiles(values, US, 200 * US)


# --- cyclictest verbose logs -------------------------------------------------------------------


def samples_of(path: Path) -> dict[int, list[tuple[int, int]]]:
    found: dict[int, list[tuple[int, int]]] = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^\s*(\d+):\s*(\d+):\s*(\d+)$", line)
        if match:
            found.setdefault(int(match[1]), []).append((int(match[2]), int(match[3]) * US))
    return found


@pytest.mark.parametrize("name", VERBOSE)
def test_verbose_statistics_are_numpys_over_the_samples(name: str) -> None:
    document = imported(DATA / name)
    logged = samples_of(DATA / name)
    assert document["source"]["format"] == "verbose"
    assert len(document["threads"]) == len(logged)
    for thread, samples in zip(document["threads"], (logged[t] for t in sorted(logged)), strict=True):
        values = numpy.array([ns for _, ns in samples])
        assert thread["samples"] == len(values)
        assert (thread["min_ns"], thread["max_ns"]) == (values.min(), values.max())
        assert abs(thread["mean_ns"] - values.mean()) <= 0.5
        assert abs(thread["stddev_ns"] - values.std()) <= 0.5
        assert thread["percentiles_ns"] == numpy_percentiles(values, US, 100_000 * US)
        worst = sorted(samples, key=lambda s: (-s[1], s[0]))[:10]
        assert [(w["cycle"], w["ns"]) for w in thread["worst"]] == worst
        block = thread["series"]["block"]
        padded = numpy.zeros(-(-len(values) // block) * block, dtype=int)
        padded[: len(values)] = values
        assert thread["series"]["max_ns"] == padded.reshape(-1, block).max(axis=1).tolist()


def test_verbose_intervals_undo_cyclictests_shifted_interval_lines() -> None:
    # 'Thread 0 Interval: 1500' / 'Thread 1 Interval: 2000' for -i1000 (thread 1: 1000 + 500).
    document = imported(DATA / "verbose-t2.txt")
    assert document["config"]["interval_us"] == 1000 and document["config"]["distance_us"] == 500
    worst = document["threads"][1]["worst"][0]
    assert worst["time_s"] == pytest.approx((worst["cycle"] + 1) * 1500e-6)
    one = imported(DATA / "verbose-t1-loongson-style.txt")  # one thread: cyclictest's default distance
    assert one["config"]["interval_us"] == 1000
    assert one["threads"][0]["series"]["block"] == 4  # 5000 loops in blocks of 4: 1250 points
    with_histogram = import_file(DATA / "verbose-with-hist.txt")  # -h: the lines are exact
    assert with_histogram.documents[0]["config"]["interval_us"] == 1000
    assert with_histogram.documents[0]["config"]["distance_us"] == 0
    assert with_histogram.problems == []  # the printed histogram agrees with the samples


def test_a_log_that_differs_from_its_printed_histogram_says_so() -> None:
    text = (DATA / "verbose-with-hist.txt").read_text()
    first = re.search(r"^ +0: +0: +(\d+)$", text, flags=re.MULTILINE)
    assert first is not None
    changed = text[: first.start(1)] + "999" + text[first.end(1) :]  # one logged sample no longer in the histogram
    result = import_text(changed, "vh.log")
    assert len(result.problems) == 1
    assert result.problems[0].startswith("vh.log: thread 0: the printed histogram (samples, min, max, Avg 1000, ")
    assert result.documents[0]["threads"][0]["max_ns"] == 999_000  # the log's samples are used


def test_verbose_affinity_gives_each_threads_cpu() -> None:
    document = imported(DATA / "verbose-affinity-a1.txt")
    assert [t["cpu"] for t in document["threads"]] == [1, 1]
    assert document["config"]["cpus"] == [1]


def test_a_verbose_log_cut_mid_line_keeps_every_complete_sample() -> None:
    text = (DATA / "verbose-t2.txt").read_text()
    lines = text.splitlines(keepends=True)
    cut = "".join(lines[:1041]) + lines[1041][:12]
    result = import_text(cut, "run.log")
    document = result.documents[0]
    assert document["stopped"] == "interrupted"
    complete = sum(1 for line in lines[:1041] if re.match(r"^\s*\d+:", line))
    assert sum(t["samples"] for t in document["threads"]) == complete
    assert result.problems == [
        f"run.log:1042: the last line is cut short ('{lines[1041][:12]}'); every complete sample before it is kept"
    ]
    assert document["source"]["problems"] == result.problems


def test_a_broken_verbose_line_is_one_error_naming_file_and_line() -> None:
    lines = (DATA / "verbose-t2.txt").read_text().splitlines(keepends=True)
    lines[1041] = "       0:    1036:  ##garbage##\n"
    with pytest.raises(BadInput) as error:
        import_text("".join(lines), "run.log")
    assert str(error.value) == "run.log:1042: expected 'thread:cycle:latency', got '       0:    1036:  ##garbage##'"


def test_the_streamed_file_and_the_text_give_the_same_documents() -> None:
    path = DATA / "verbose-t1-loongson-style.txt"
    assert import_file(path).documents == import_text(path.read_text(), str(path)).documents


def test_runs_in_one_file_are_documents_of_their_own(tmp_path: Path) -> None:
    both = tmp_path / "both.log"
    both.write_text((DATA / "verbose-t2.txt").read_text() + (DATA / "verbose-affinity-a1.txt").read_text())
    result = import_file(both)
    assert [len(d["threads"]) for d in result.documents] == [2, 2]
    assert [d["config"]["cpus"] for d in result.documents] == [None, [1]]
    histograms = tmp_path / "hists.txt"
    histograms.write_text((DATA / "hist-h400.txt").read_text() + (DATA / "hist-h5-overflows.txt").read_text())
    assert [d["threads"][0]["histogram"]["overflow"] for d in import_file(histograms).documents] == [0, 2000]


# --- cyclictest summaries ----------------------------------------------------------------------


def test_summary_lines_keep_each_threads_last_line() -> None:
    live = imported(DATA / "live-t2.txt")  # the live screen repeats the lines, with cursor movements
    last = {}
    for line in (DATA / "live-t2.txt").read_text().splitlines():
        match = re.search(r"T:\s*(\d+) .*C:\s*(\d+) Min:\s*(\d+) Act:\s*\d+ Avg:\s*(\d+) Max:\s*(\d+)", line)
        if match:
            last[int(match[1])] = [int(v) for v in match.groups()[1:]]
    assert [[t["samples"], t["min_ns"], t["mean_ns"], t["max_ns"]] for t in live["threads"]] == [
        [c, mn * US, avg * US, mx * US] for c, mn, avg, mx in (last[t] for t in sorted(last))
    ]
    assert live["config"]["policy"] == "fifo"
    assert live["threads"][0]["histogram"] is None and live["threads"][0]["percentiles_ns"] is None


@pytest.mark.parametrize("name", NOT_RESULTS)
def test_stdout_without_results_is_refused(name: str) -> None:
    with pytest.raises(BadInput, match="not a cyclictest or rtla output"):
        import_file(DATA / name)


# --- rtla timerlat hist ------------------------------------------------------------------------


@pytest.mark.parametrize("name", RTLA_READABLE)
def test_rtla_columns_are_numpys_figures(name: str) -> None:
    expected = json.loads((RTLA / "expected.json").read_text())[name]
    document = imported(RTLA / name)
    assert document["source"]["tool"] == "rtla-timerlat" and document["source"]["format"] == "hist"
    assert document["source"]["file"] == str(RTLA / name) and document["source"]["command"] is None
    labels = {"irq": "IRQ", "thread": "Thr", "user": "Usr"}
    seen = set()
    for entry in document["timerlat"]["threads"]:
        for kind, label in labels.items():
            stats = entry[kind]
            if stats is None:
                continue
            key = f"{label}-{entry['cpu']:03d}"
            seen.add(key)
            truth = expected[key]
            assert stats["samples"] == truth["samples"]
            if truth["samples"] == 0:
                assert stats["min_ns"] is None and stats["percentiles_ns"] is None
                continue
            assert (stats["min_ns"], stats["max_ns"]) == (truth["min_ns"], truth["max_ns"])
            assert stats["histogram"]["overflow"] == truth["overflow"]
            assert abs(stats["mean_ns"] - truth["mean_ns"]) <= 0.5
            if truth["stddev_ns"] is None:
                assert stats["stddev_ns"] is None
            else:
                assert abs(stats["stddev_ns"] - truth["stddev_ns"]) <= 0.5
            assert stats["percentiles_ns"] == truth["percentiles_ns"]
    assert seen == set(expected)
    # threads[] holds the thread latency, the figure cyclictest measures too.
    assert [t["cpu"] for t in document["threads"]] == sorted({int(k[4:]) for k in expected if k.startswith("Thr")})
    thread_stats = {e["cpu"]: e["thread"] for e in document["timerlat"]["threads"]}
    assert all(t["max_ns"] == thread_stats[t["cpu"]]["max_ns"] for t in document["threads"])


def test_rtla_configuration_and_notes() -> None:
    nano = imported(RTLA / "timerlat-hist-nano-bucket.txt")
    assert nano["config"]["bucket_ns"] == 250 and nano["config"]["duration_s"] == 60
    assert imported(RTLA / "timerlat-hist-doc-example.txt")["config"]["duration_s"] == 600
    missed = import_file(RTLA / "timerlat-hist-missed-events.txt")
    assert missed.documents[0]["timerlat"]["missed_events"] == 17
    assert any("lost 17 trace events" in p for p in missed.problems)
    stopped = import_file(RTLA / "timerlat-hist-threshold-stop.txt")
    assert stopped.documents[0]["stopped"] == "interrupted"
    assert any("threshold" in p for p in stopped.problems)


@pytest.mark.parametrize(
    "name, message",
    [
        ("timerlat-hist-no-header.txt", r"no-header\.txt:1: expected '# RTLA timerlat histogram'.*--no-header"),
        ("timerlat-hist-no-index.txt", r"no-index\.txt:4: no 'Index' column .*--no-index"),
    ],
)
def test_rtla_layouts_that_name_nothing_are_refused(name: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        import_file(RTLA / name)


# --- detection and forcing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, fmt",
    [(n, "cyclictest-histogram") for n in HISTOGRAMS]
    + [(n, "cyclictest-verbose") for n in VERBOSE]
    + [(n, "cyclictest-summary") for n in SUMMARIES]
    + [(n, "cyclictest-json") for n in JSONS]
    + [(f"rtla/{n}", "rtla-timerlat-hist") for n in RTLA_READABLE],
)
def test_the_format_is_found_from_the_content_and_can_be_forced(name: str, fmt: str) -> None:
    detected = import_file(DATA / name)
    source = detected.documents[0]["source"]
    assert f"{source['tool']}-{source['format']}" == fmt
    assert import_file(DATA / name, fmt).documents == detected.documents


def test_forcing_the_wrong_format_is_one_line() -> None:
    with pytest.raises(BadInput, match=r"verbose-t2\.txt:1: invalid JSON"):
        import_file(DATA / "verbose-t2.txt", "cyclictest-json")
    with pytest.raises(BadInput, match=r"hist-h400\.txt: no samples \('thread:cycle:latency' lines\)$"):
        import_file(DATA / "hist-h400.txt", "cyclictest-verbose")
    with pytest.raises(
        BadInput, match=r"verbose-t2\.txt:1: expected a histogram row \('000012 000034'\), got 'Max CPUs = 2'$"
    ):
        import_file(DATA / "verbose-t2.txt", "cyclictest-histogram")
    with pytest.raises(BadInput, match="unknown input format 'csv'"):
        import_file(DATA / "hist-h400.txt", "csv")
    assert set(INPUT_FORMATS) == {
        "cyclictest-histogram",
        "cyclictest-json",
        "cyclictest-verbose",
        "cyclictest-summary",
        "rtla-timerlat-hist",
    }


def test_files_that_are_not_results(tmp_path: Path) -> None:
    empty = tmp_path / "empty.log"
    empty.write_text("\n  \n")
    with pytest.raises(BadInput, match=r"empty\.log: empty file$"):
        import_file(empty)
    with pytest.raises(BadInput, match="is a directory"):
        import_file(tmp_path)
    with pytest.raises(BadInput, match="No such file"):
        import_file(tmp_path / "missing.log")
    binary = tmp_path / "core"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    with pytest.raises(BadInput, match="binary data"):
        import_file(binary)


def test_numbers_beyond_any_latency_are_one_line() -> None:
    log = "Max CPUs = 1\n       0:       0:      12\n       0:       1: " + "9" * 5000 + "\n"
    with pytest.raises(BadInput, match=r"^run\.log:3: latency: 999999999999… \(5000 digits\) is too large$"):
        import_text(log, "run.log")
    with pytest.raises(BadInput, match=r"^run\.log:2: latency: 99999999999999 is too large for a latency"):
        import_text("Max CPUs = 1\n0:0:99999999999999\n", "run.log")


def test_counts_in_messages_agree_with_their_nouns() -> None:
    one_thread_two_columns = "# Histogram\n000000 000001 000001\n# Total: 000000001\n" + "".join(
        f"# {key}: 00000\n" for key in ("Min Latencies", "Avg Latencies", "Max Latencies", "Histogram Overflows")
    )
    with pytest.raises(BadInput, match=r"^h\.txt:2: 2 columns for 1 thread$"):
        import_text(one_thread_two_columns, "h.txt")
    lines = (DATA / "verbose-t1-loongson-style.txt").read_text().splitlines(keepends=True)
    cycle_100 = next(i for i, line in enumerate(lines) if re.match(r"^\s*0:\s*100:", line))
    problems = import_text("".join(lines[:cycle_100] + lines[cycle_100 + 1 :]), "v.log").problems
    assert problems == [
        f"v.log:{cycle_100 + 1}: thread 0: 1 cycle is missing from the log, the first after cycle 99 "
        "(lines lost, or an -o reduced log)"
    ]
