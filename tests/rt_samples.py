"""The rt import tests' samples (tests/data/rt) and the checks every imported
document must pass, damaged input or not."""

from __future__ import annotations

import json
from pathlib import Path

from portkit.commands.rt.importers import ImportResult, import_file
from portkit.commands.rt.stats import PERCENTILES

DATA = Path(__file__).parent / "data" / "rt"
RTLA = DATA / "rtla"
US = 1000
# numpy ranks in floats: 99.9 / 100 * 2000 is 1998.0000000000002 there, one rank too far. A nudge far
# below the 1/10000 steps of q·n (q has at most 4 decimals) lands it on the exact rank.
NUMPY_Q_NUDGE = 1e-9

HISTOGRAMS = [
    "hist-h400.txt",
    "histofall-H400.txt",
    "histfile-h400.txt",
    "hist-h5-overflows.txt",
    "hist-affinity-a1.txt",
]
VERBOSE = ["verbose-t2.txt", "verbose-affinity-a1.txt", "verbose-with-hist.txt", "verbose-t1-loongson-style.txt"]
SUMMARIES = ["quiet-t2.txt", "live-t2.txt", "json-nohist.stdout.txt", "json-sigint.stdout.txt"]
JSONS = ["json-h400.json", "json-nohist.json", "json-nsecs.json", "json-sigint.json"]
NOT_RESULTS = ["histfile-h400.stdout.txt", "json-nsecs.stdout.txt"]  # stdout that only held a header line
RTLA_READABLE = [
    "timerlat-hist-doc-example.txt",
    "timerlat-hist-user-threads.txt",
    "timerlat-hist-nano-bucket.txt",
    "timerlat-hist-no-summary.txt",
    "timerlat-hist-missed-events.txt",
    "timerlat-hist-threshold-stop.txt",
]
RTLA_REFUSED = ["timerlat-hist-no-header.txt", "timerlat-hist-no-index.txt"]
EVERY_FILE = [DATA / name for name in HISTOGRAMS + VERBOSE + SUMMARIES + JSONS + NOT_RESULTS] + [
    RTLA / name for name in RTLA_READABLE + RTLA_REFUSED
]


def imported(path: Path, forced_format: str | None = None) -> dict:
    result = import_file(path, forced_format)
    assert len(result.documents) == 1
    check_shape(result, sound=True)
    return result.documents[0]


def check_shape(result: ImportResult, sound: bool = False) -> None:
    """The portkit.rt/1 shape, JSON without floats' surprises, whatever the input;
    for a sound input also the figures' own consistency."""
    json.dumps(result.documents, allow_nan=False)
    assert all(isinstance(p, str) and "\n" not in p for p in result.problems)
    for document in result.documents:
        assert document["schema"] == "portkit.rt/1"
        assert document["stopped"] in ("completed", "interrupted", "unknown")
        assert {"tool", "format", "file", "command"} <= document["source"].keys()
        assert document["source"]["problems"] == result.problems
        assert {"interval_us", "distance_us", "priority", "policy", "cpus", "loops", "duration_s", "bucket_ns"} <= (
            document["config"].keys()
        )
        stats = list(document["threads"])
        for entry in (document["timerlat"] or {}).get("threads", []):
            stats += [entry[kind] for kind in ("irq", "thread", "user") if entry.get(kind) is not None]
        for thread in stats:
            for key in ("samples", "min_ns", "max_ns", "mean_ns", "stddev_ns"):
                assert thread[key] is None or (type(thread[key]) is int and thread[key] >= 0), key
            if thread["percentiles_ns"] is not None:
                assert list(thread["percentiles_ns"]) == list(PERCENTILES)
            if sound and thread["samples"]:
                assert thread["min_ns"] <= thread["mean_ns"] <= thread["max_ns"]
                histogram = thread["histogram"]
                if histogram is not None:
                    assert sum(histogram["counts"]) + histogram["overflow"] == thread["samples"]
                    values = [v for v in thread["percentiles_ns"].values() if v is not None]
                    assert values == sorted(values)
                    assert thread["min_ns"] <= values[0] and values[-1] <= thread["max_ns"]
