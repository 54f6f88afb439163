"""`portkit report --baseline OLD.json`: what changed since an earlier
report. A defect fixed and another one added in real C code, a struct whose
layout changed, latency cells that got worse, better or stayed within the
noise, from real cyclictest runs (tests/data/rt)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portkit.commands.report.latency import compare_cell
from portkit.commands.rt.importers import import_file
from report_samples import DATA, write_study
from test_report import report

POINTER_IN_INT = "int keep(int *p) { int a = (int) p; return a; }\n"
LONG_AS_INT = '#include <stdio.h>\nvoid show(long n) { printf("%d\\n", n); }\n'


def area(document: dict, key: str) -> dict:
    return next(a for a in document["areas"] if a["area"] == key)


def test_a_fixed_defect_and_a_new_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "a.c").write_text(POINTER_IN_INT)
    old = tmp_path / "old.json"
    code, _, _ = report(capsys, "--source", source, "--json", old, "-q")
    assert code == 1
    (source / "a.c").write_text("#include <stdint.h>\nintptr_t keep(int *p) { intptr_t a = (intptr_t) p; return a; }\n")
    (source / "b.c").write_text(LONG_AS_INT)
    code, out, _ = report(capsys, "--source", source, "--baseline", old, "--format", "json", "-q")
    document = json.loads(out)
    scanned = area(document, "code")
    assert [(i["group"], i.get("change")) for i in scanned["items"]] == [("PK201", "new")]
    assert [f["group"] for f in scanned["fixed"]] == ["PK101"]
    assert scanned["decisive"][0]["new"] == 1 and scanned["was"] == "not_ready"
    assert document["baseline"]["path"] == str(old) and code == 1
    _, markdown, _ = report(capsys, "--source", source, "--baseline", old, "--format", "markdown", "-q")
    assert "(1 new)" in markdown
    _, page, _ = report(capsys, "--source", source, "--baseline", old, "--format", "html", "-q")
    assert "Fixed since the baseline (1)" in page and 'class="change new"' in page


def test_a_layout_that_changed_a_new_one_and_one_that_no_longer_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = tmp_path / "wire.h"
    header.write_text("struct msg { long a; int b; };\nstruct gone { long t; };\nstruct same { long s; };\n")
    old = tmp_path / "old.json"
    report(capsys, "--headers", header, "--json", old, "-q")
    header.write_text("struct msg { long a; long b; };\nstruct same { long s; };\nstruct extra { void *p; };\n")
    _, out, _ = report(capsys, "--headers", header, "--baseline", old, "--format", "json", "-q")
    layouts = area(json.loads(out), "layouts")
    changes = {r["name"]: r.get("change") for r in layouts["records"]}
    assert changes == {"struct msg": "changed", "struct same": None, "struct extra": "new"}
    assert layouts["records_fixed"] == ["struct gone"]


def _study(directory: Path, runs: dict[str, str]) -> Path:
    """A study whose cells are real cyclictest runs: {load: file in tests/data/rt}."""
    for load, name in runs.items():
        write_study(directory / load, (load,), (1000,), import_file(DATA / name).documents[0])
    merged = directory / "study"
    (merged / "cells").mkdir(parents=True)
    cells = []
    for load in runs:
        cell = next((directory / load / "cells").glob("*.json"))
        (merged / "cells" / cell.name).write_text(cell.read_text())
        cells.append(cell.stem)
    study = json.loads((directory / next(iter(runs)) / "study.json").read_text())
    study["cells"] = cells
    (merged / "study.json").write_text(json.dumps(study))
    return merged


def test_latency_worse_better_and_within_the_noise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _study(
        tmp_path / "before", {"idle": "verbose-t2.txt", "cpu": "verbose-affinity-a1.txt", "io": "hist-h400.txt"}
    )
    after = _study(
        tmp_path / "after",
        {"idle": "verbose-with-hist.txt", "cpu": "verbose-t1-loongson-style.txt", "io": "histofall-H400.txt"},
    )
    old = tmp_path / "old.json"
    report(capsys, before, "--max-latency-us", "10000", "--json", old)
    code, out, _ = report(capsys, after, "--max-latency-us", "10000", "--baseline", old, "--format", "json")
    cells = {c["key"]: c["change"] for c in area(json.loads(out), "latency")["cells"]}
    # idle: p99 49 -> 25 us, max 570 -> 109 us: both beyond the noise
    assert (cells["idle-1000us"]["p99"]["change"], cells["idle-1000us"]["max"]["change"]) == ("better", "better")
    # cpu: max 91 us -> 6.3 ms (a real outlier) is a regression; p99 42 -> 26 us is within the CPUs' spread (16 us)
    assert cells["cpu-1000us"]["change"] == "worse" and cells["cpu-1000us"]["p99"]["change"] == "same"
    assert cells["cpu-1000us"]["p99"]["tolerance_ns"] == 16000
    # io: max 299 -> 195 us, but the two CPUs of the earlier run differed by 123 us: noise
    assert cells["io-1000us"]["max"] == {"old_ns": 299000, "new_ns": 195000, "tolerance_ns": 123000, "change": "same"}
    assert code == 0  # all within the 10 ms limit: worse is reported, the limit decides


def test_a_cell_over_its_limit_since_the_baseline_is_new_in_what_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _study(tmp_path / "before", {"cpu": "verbose-affinity-a1.txt"})
    after = _study(tmp_path / "after", {"cpu": "verbose-t1-loongson-style.txt"})
    old = tmp_path / "old.json"
    report(capsys, before, "--max-latency-us", "1000", "--json", old)
    code, out, _ = report(capsys, after, "--max-latency-us", "1000", "--baseline", old, "--format", "json")
    latency = area(json.loads(out), "latency")
    assert latency["was"] == "ready" and latency["verdict"] == "not_ready" and code == 1
    assert [i.get("change") for i in latency["items"] if i["decides"]] == ["worse"]
    code, out, _ = report(
        capsys, before, "--max-latency-us", "1000", "--baseline", tmp_path / "new.json", "--format", "json"
    )
    assert code == 2  # a baseline that is not there


@pytest.mark.parametrize(
    ("old", "new", "noise", "change"),
    [
        # 20% of the old value is the floor: 100 -> 119 us is noise, 100 -> 121 us is not
        ({"p99_ns": 100_000}, {"p99_ns": 119_000}, 20.0, "same"),
        ({"p99_ns": 100_000}, {"p99_ns": 121_000}, 20.0, "worse"),
        # the CPUs of one run disagreeing by 50 us widen it
        ({"p99_ns": 100_000, "threads_p99_ns": [80_000, 130_000]}, {"p99_ns": 145_000}, 20.0, "same"),
        # one histogram bucket is the resolution: 3 -> 4 us in 1 us buckets is not a change at 0%
        ({"p99_ns": 3_000, "bucket_ns": 1000}, {"p99_ns": 4_000, "bucket_ns": 1000}, 0.0, "same"),
        ({"p99_ns": 3_000, "bucket_ns": 1000}, {"p99_ns": 1_000, "bucket_ns": 1000}, 0.0, "better"),
    ],
)
def test_the_noise_is_the_largest_of_the_tolerance_the_spread_and_the_resolution(
    old: dict, new: dict, noise: float, change: str
) -> None:
    assert compare_cell(old, new, noise)["p99"]["change"] == change
