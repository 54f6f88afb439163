"""`portkit rt import | table | compare | plot` on real cyclictest runs
(tests/data/rt/, recorded with rt-tests 2.4): the figures each form shows
are cyclictest's own (its footer's Min, Max, Total, its truncated Avg), bad
results are one error line, exit 2, and imports of two files of one name
both stay, each saying where it went."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_portkit

DATA = ROOT / "tests" / "data" / "rt"


def portkit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("rt", *args, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("imported")
    files = ("hist-h400.txt", "verbose-t2.txt", "json-h400.json")
    proc = portkit("import", *[DATA / f for f in files], "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"{DATA / f} -> {out / Path(f).stem}.json" for f in files]
    return out


def rows_by_name(directory: Path) -> dict[str, dict]:
    proc = portkit("table", directory, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["schema"] == "portkit.rt-table/1"
    return {row["name"]: row for row in document["rows"]}


def test_the_table_holds_cyclictests_own_figures(imported: Path) -> None:
    # hist-h400.txt's footer: Total 2000 2000, Min 7 7, Avg 19 18, Max 176 299.
    row = rows_by_name(imported)["hist-h400"]
    assert (row["samples"], row["min_ns"], row["max_ns"]) == (4000, 7000, 299000)
    # cyclictest cuts each thread's Avg to whole us: the pooled mean lies between them.
    assert 18000 <= row["mean_ns"] < 20000
    assert row["min_ns"] <= row["p99_ns"] <= row["p999_ns"] <= row["max_ns"]


def test_a_verbose_log_counts_every_logged_sample(imported: Path) -> None:
    log = (DATA / "verbose-t2.txt").read_text().splitlines()
    samples = [line.split(":") for line in log if line.count(":") == 2 and line.split(":")[0].strip().isdigit()]
    latencies = [int(s[2]) for s in samples]
    row = rows_by_name(imported)["verbose-t2"]
    assert row["samples"] == len(latencies)
    assert (row["min_ns"], row["max_ns"]) == (min(latencies) * 1000, max(latencies) * 1000)


def test_markdown_and_csv_show_the_same_rows(imported: Path) -> None:
    markdown = portkit("table", imported, "--format", "markdown").stdout.splitlines()
    assert markdown[2].startswith("| load | interval us | min | avg | max | std.dev | p99 | p99.9 |")
    body = [line for line in markdown[4:] if line.startswith("| hist-h400 ")]
    assert body and "| 7.0 |" in body[0] and "| 299.0 |" in body[0] and "| 4000 |" in body[0]
    rows = list(csv.DictReader(io.StringIO(portkit("table", imported, "--format", "csv").stdout)))
    assert [r["name"] for r in rows] == ["hist-h400", "json-h400", "verbose-t2"]
    assert rows[0]["max"] == "299.0" and rows[0]["samples"] == "4000"


def test_compare_single_runs_against_the_first(imported: Path) -> None:
    proc = portkit("compare", imported / "hist-h400.json", imported / "verbose-t2.json", "--format", "json")
    document = json.loads(proc.stdout)
    assert document["schema"] == "portkit.rt-compare/1"
    [cell] = document["cells"]
    first, second = cell["results"]
    assert (first["max"], first["change"]) == (299000, {})
    log_max = second["max"]
    assert second["change"]["max"] == f"{100 * (log_max - 299000) / 299000:+.0f}%"


def test_plots_are_written_as_png_and_svg(imported: Path, tmp_path: Path) -> None:
    proc = portkit("plot", imported, "--to", tmp_path, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    files = [Path(f) for f in json.loads(proc.stdout)["files"]]
    names = {f.name for f in files}
    # json-h400 and verbose-t2 ran at 1000 us; the plain histogram does not say its interval.
    assert {"histogram-1000us.png", "histogram-1000us.svg", "loops-1000us.svg", "box-1000us.png"} <= names
    assert "histogram-imported.png" in names and "loops-imported.png" not in names  # no samples, no series
    for f in files:
        head = f.read_bytes()[:200]
        assert head.startswith(b"\x89PNG") if f.suffix == ".png" else b"<svg" in f.read_bytes()[:2000]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not a portkit rt result"),
        ('{"schema": "portkit.scan/1"}', "not a portkit rt result (schema 'portkit.scan/1')"),
        ("[1, 2]", "a JSON object is expected"),
    ],
)
def test_a_bad_result_file_is_one_line(tmp_path: Path, content: str, reason: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    for mode in ("table", "plot", "compare"):
        proc = portkit(mode, bad)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert proc.stderr.count("\n") == 1 and str(bad) in proc.stderr and reason in proc.stderr


def test_an_empty_directory_is_one_line(tmp_path: Path) -> None:
    proc = portkit("table", tmp_path)
    assert proc.returncode == 2
    reason = "neither a study (study.json) nor any portkit rt result (*.json)"
    assert proc.stderr.strip() == f"portkit: error: {tmp_path}: {reason}"


def test_import_goes_on_past_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "noise.txt").write_text("hello\n")
    proc = portkit("import", tmp_path / "noise.txt", DATA / "hist-h400.txt", "-o", tmp_path / "out")
    assert proc.returncode == 2
    assert [line for line in proc.stderr.splitlines() if "noise.txt" in line] == proc.stderr.splitlines()
    assert (tmp_path / "out" / "hist-h400.json").exists()


def test_two_files_of_one_name_are_both_kept_and_said_where(tmp_path: Path) -> None:
    for board, sample in (("board1", "hist-h400.txt"), ("board2", "hist-h5-overflows.txt")):
        (tmp_path / board).mkdir()
        shutil.copy(DATA / sample, tmp_path / board / "cyclictest.txt")
    proc = portkit("import", "board1/cyclictest.txt", "board2/cyclictest.txt", "-o", "imp", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "board1/cyclictest.txt -> imp/board1-cyclictest.json",
        "board2/cyclictest.txt -> imp/board2-cyclictest.json",
    ]
    for board in ("board1", "board2"):
        document = json.loads((tmp_path / "imp" / f"{board}-cyclictest.json").read_text())
        assert document["source"]["file"] == f"{board}/cyclictest.txt"
    # Another file of that name later: the earlier imports stay; the same file again updates its own.
    (tmp_path / "cyclictest.txt").write_text((DATA / "json-nohist.json").read_text())
    again = portkit("import", "cyclictest.txt", "-o", "imp", cwd=tmp_path)
    assert again.stdout.splitlines() == ["cyclictest.txt -> imp/cyclictest.json"]
    assert portkit("import", "cyclictest.txt", "-o", "imp", cwd=tmp_path).stdout == again.stdout
    third = portkit("import", "board2/cyclictest.txt", "-o", "imp", "--format", "json", cwd=tmp_path)
    assert json.loads(third.stdout)["imported"][0]["results"] == ["imp/board2-cyclictest.json"]
    assert sorted(p.name for p in (tmp_path / "imp").iterdir()) == [
        "board1-cyclictest.json",
        "board2-cyclictest.json",
        "cyclictest.json",
    ]


def test_import_honours_format_json(tmp_path: Path) -> None:
    (tmp_path / "noise.txt").write_text("hello\n")
    proc = portkit("import", DATA / "verbose-t2.txt", tmp_path / "noise.txt", "-o", tmp_path, "--format", "json")
    assert proc.returncode == 2
    document = json.loads(proc.stdout)
    assert document["schema"] == "portkit.rt-import/1"
    [entry] = document["imported"]
    assert entry["file"] == str(DATA / "verbose-t2.txt") and entry["results"] == [str(tmp_path / "verbose-t2.json")]
    [failed] = document["failed"]
    assert failed["file"] == str(tmp_path / "noise.txt") and failed["error"] in proc.stderr


def test_an_average_the_file_gives_is_shown(tmp_path: Path) -> None:
    # cyclictest's own Avg where the histogram cannot give the mean (it overflowed), and JSON's "avg".
    files = (DATA / "hist-h5-overflows.txt", DATA / "json-nohist.json")
    assert portkit("import", *files, "-o", tmp_path).returncode == 0
    rows = {r["name"]: r for r in json.loads(portkit("table", tmp_path, "--format", "json").stdout)["rows"]}
    for name in ("hist-h5-overflows", "json-nohist"):
        threads = json.loads((tmp_path / f"{name}.json").read_text())["threads"]
        samples = sum(t["samples"] for t in threads)
        pooled = sum(t["samples"] * t["mean_ns"] for t in threads) / samples
        assert rows[name]["mean_ns"] is not None and abs(rows[name]["mean_ns"] - pooled) <= 0.5
        assert rows[name]["stddev_ns"] is None  # what the file cannot tell stays unknown
