"""`portkit rt` as a newcomer meets it, without measuring: the text on an
80-column terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from terminal import run_on_terminal

DATA = ROOT / "tests" / "data" / "rt"


def portkit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "portkit", "rt", *map(str, args)], capture_output=True, text=True, timeout=120, cwd=cwd
    )


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
