"""`portkit rt` as a newcomer meets it, without measuring: where -o and --to
go and what goes wrong there, what plot and compare call each result, and
the text on an 80-column terminal."""

from __future__ import annotations

import json
import platform
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_portkit
from portkit.commands.rt.sysinfo import render
from portkit.core.output import render_text
from terminal import run_on_terminal

DATA = ROOT / "tests" / "data" / "rt"


def portkit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("rt", *args, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A study of two cells made from recorded results (no measuring): the
    second interrupted, as Ctrl-C leaves it."""
    directory = tmp_path_factory.mktemp("study")
    (directory / "cells").mkdir()
    description = {
        "schema": "portkit.rt-study/1",
        "target": "local",
        "measure": {},
        "cells": ["idle-1000us", "cpu-1000us"],
        "sysinfo": None,
    }
    (directory / "study.json").write_text(json.dumps(description))
    imported = tmp_path_factory.mktemp("imported")
    assert portkit("import", DATA / "json-h400.json", "-o", imported).returncode == 0
    rt = json.loads((imported / "json-h400.json").read_text())
    for load, stopped in (("idle", "completed"), ("cpu", "interrupted")):
        cell = {"cell": {"load": load, "interval_us": 1000, "command": None}, "rt": {**rt, "stopped": stopped}}
        (directory / "cells" / f"{load}-1000us.json").write_text(json.dumps(cell))
    return directory


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr.removeprefix("portkit: error: ").strip()


# --- -o and --to ----------------------------------------------------------------------------------


def test_each_place_that_cannot_be_written_is_one_line(study: Path, tmp_path: Path) -> None:
    readme = ROOT / "README.md"
    cases = [
        (["table", study, "-o", study], f"-o {study}: is a directory (give a file name)"),
        (["run", "--loads", "idle", "--loops", "10", "-o", "/proc/nope"], "-o /proc/nope: cannot create the directory"),
        (["run", "--loads", "idle", "--loops", "10", "-o", readme], f"-o {readme}: is a file, not a directory"),
        (["plot", study, "--to", "/proc/plots"], "--to /proc/plots: cannot create the directory"),
        (["import", DATA / "hist-h400.txt", "-o", "/proc/imp"], "-o /proc/imp: cannot create the directory"),
    ]
    for args, message in cases:
        assert one_error(portkit(*args)).startswith(message), args


def test_plot_refuses_a_picture_name_for_its_listing(study: Path, tmp_path: Path) -> None:
    message = one_error(portkit("plot", study, "-o", tmp_path / "plot.png"))
    assert message.startswith(f"-o {tmp_path / 'plot.png'}: -o writes the list of the pictures (text or JSON)")
    assert "--to DIR" in message and not (tmp_path / "plot.png").exists()
    listing = tmp_path / "plots.txt"
    assert portkit("plot", study, "--to", tmp_path / "pictures", "-o", listing).returncode == 0
    assert sorted(listing.read_text().split()) == sorted(str(p) for p in (tmp_path / "pictures").iterdir())


def test_a_plot_marks_an_interrupted_cell_as_the_table_does(study: Path) -> None:
    from portkit.commands.rt.plot import label
    from portkit.commands.rt.results import read_results

    labels = [label(name, document) for name, document in read_results(study).cells]
    assert labels == ["idle", "cpu (interrupted)"]
    assert "cpu (interrupted)" in portkit("table", study).stdout


# --- compare ----------------------------------------------------------------------------------------


def test_compare_names_each_single_result_by_its_own_cell(study: Path) -> None:
    cells = study / "cells"
    proc = portkit("compare", cells / "idle-1000us.json", cells / "cpu-1000us.json")
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()[1:]
    assert [r.split()[:2] for r in rows] == [
        ["idle-1000us", str(cells / "idle-1000us.json")],
        ["cpu-1000us", str(cells / "cpu-1000us.json")],
    ]


def test_compare_needs_two_results(study: Path) -> None:
    message = one_error(portkit("compare", study))
    assert message == f"rt compare: {study}: one result alone; give two or more to compare " + (
        f"(`portkit rt table {study}` shows one)"
    )


# --- text on a terminal -------------------------------------------------------------------------


def test_the_table_fits_an_80_column_terminal_and_stays_whole_in_a_pipe(study: Path) -> None:
    piped = portkit("table", study).stdout.splitlines()
    assert max(len(line) for line in piped) > 80  # the case: one line per row in a pipe
    assert len(piped) == 5
    screen = run_on_terminal(["rt", "table", str(study)], columns=80)
    assert screen.returncode == 0
    lines = [line for line in screen.lines if line]
    assert max(len(line) for line in lines) <= 80, screen.lines
    header = next(line for line in lines if line.startswith("load "))
    interval = ["interval", "us"] if "every row at an interval of 1000 us" not in lines else []
    assert header.split() == ["load", *interval, "min", "avg", "max", "std.dev", "p99", "p99.9"]
    assert [line.split()[0] for line in lines if line.startswith(("idle", "cpu"))] == ["idle", "cpu"] * 2
    assert any(line.startswith("cpu (interrupted)") for line in lines)


def test_compare_fits_an_80_column_terminal_its_studies_numbered(study: Path) -> None:
    cells = study / "cells"
    args = ["compare", str(cells / "idle-1000us.json"), str(cells / "cpu-1000us.json")]
    assert max(len(line) for line in portkit(*args).stdout.splitlines()) > 80  # whole lines in a pipe
    screen = run_on_terminal(["rt", *args], columns=80)
    assert screen.returncode == 0
    assert max(len(line) for line in screen.lines) <= 80, screen.lines
    assert f"1  {cells / 'idle-1000us.json'}" in screen.lines and f"2  {cells / 'cpu-1000us.json'}" in screen.lines
    rows = [line.split() for line in screen.lines if line.startswith(("idle-1000us", "cpu-1000us"))]
    assert [row[:2] for row in rows] == [["idle-1000us", "1"], ["cpu-1000us", "2"]] * 2
    changes = json.loads(portkit(*args, "--format", "json").stdout)["cells"][0]["results"][1]["change"]
    assert rows[1][-2:] == [changes["max"], changes["p99"]]


def test_sysinfo_fits_an_80_column_terminal() -> None:
    screen = run_on_terminal(["rt", "sysinfo"], columns=80)
    assert screen.returncode == 0
    assert max(len(line) for line in screen.lines) <= 80, screen.lines


def test_sysinfo_counts_its_warnings_in_words() -> None:
    one = {"kernel": {}, "warnings": [{"about": "loadavg", "message": "busy"}]}
    assert "1 warning:\n" in render_text(render(one))
    assert "2 warnings:\n" in render_text(render({**one, "warnings": one["warnings"] * 2}))


def test_sysinfo_shows_each_warnings_rule_id() -> None:
    with_id = {"kernel": {}, "warnings": [{"id": "PKS113", "about": "loadavg", "message": "busy"}]}
    assert "  PKS113 loadavg: busy" in render_text(render(with_id))
    older_agent = {"kernel": {}, "warnings": [{"about": "loadavg", "message": "busy"}]}
    assert "  loadavg: busy" in render_text(render(older_agent))


def test_sysinfo_under_qemu_user_says_whose_kernel_it_is() -> None:
    agent = ROOT / "build" / "aarch64-linux-gnu" / "portkit-target"
    if not agent.exists():
        pytest.skip(f"{agent} not built (make cross)")
    proc = portkit("sysinfo", "--target", "qemu-aarch64", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    document = json.loads(portkit("sysinfo", "--target", "qemu-aarch64", "--format", "json", cwd=ROOT).stdout)
    lines = proc.stdout.splitlines()
    host = platform.machine()
    assert lines[0].startswith(f"EMULATED by qemu-user: the agent is {document['agent']['arch']} (LP64)")
    assert f"this {host} host's, seen through the emulator" in lines[0]
    assert lines[2].startswith(f"kernel           {document['kernel']['release']} {host}, this host's")


def test_nothing_to_plot_is_said_once_on_stderr(tmp_path: Path) -> None:
    assert portkit("import", DATA / "quiet-t2.txt", "-o", tmp_path).returncode == 0
    listing = tmp_path / "plots.txt"
    proc = portkit("plot", tmp_path, "-o", listing)
    assert proc.returncode == 0 and listing.read_text() == "" and not (tmp_path / "plots").exists()
    assert proc.stderr == (
        f"portkit: warning: nothing to plot: {tmp_path} holds no histogram and no latency per loop "
        "(a cyclictest -q summary keeps neither)\n"
    )
