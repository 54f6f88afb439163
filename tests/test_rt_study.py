"""`portkit rt run` end to end with the real agent: a study's directory (its
description, the target's facts, one file per cell), going on where an
earlier run stopped, Ctrl-C keeping what was measured, loads that report what
they achieved, an emulated target, and bad options as one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

CPUS = len(os.sched_getaffinity(0))


def rt(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "portkit", "rt", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def cell(directory: Path, name: str) -> dict:
    return json.loads((directory / "cells" / f"{name}.json").read_text())


def test_a_study_is_a_directory_of_cells(tmp_path: Path) -> None:
    study = tmp_path / "study"
    proc = rt("run", "--loads", "idle", "--intervals", "1000,500", "--loops", "200", "-o", study, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    description = json.loads((study / "study.json").read_text())
    assert description["schema"] == "portkit.rt-study/1"
    assert description["cells"] == ["idle-1000us", "idle-500us"]
    assert description["measure"]["loops"] == 200 and description["measure"]["priority"] == 80
    assert description["sysinfo"]["cpus"]["count"] >= CPUS
    for name, interval in (("idle-1000us", 1000), ("idle-500us", 500)):
        document = cell(study, name)
        assert document["cell"] == {"load": "idle", "interval_us": interval, "command": None}
        assert document["rt"]["schema"] == "portkit.rt/1" and document["rt"]["stopped"] == "completed"
        assert document["rt"]["config"]["interval_us"] == interval and document["loads"] == []
        assert [t["samples"] for t in document["rt"]["threads"]] == [200] * CPUS
    rows = json.loads(proc.stdout)["rows"]
    assert [(r["name"], r["samples"]) for r in rows] == [("idle-1000us", 200 * CPUS), ("idle-500us", 200 * CPUS)]


def test_a_study_goes_on_where_it_stopped(tmp_path: Path) -> None:
    study = tmp_path / "study"
    assert rt("run", "--loads", "idle", "--intervals", "1000", "--loops", "100", "-o", study).returncode == 0
    first = (study / "cells" / "idle-1000us.json").read_bytes()
    proc = rt("run", "--loads", "idle", "--intervals", "1000,2000", "--loops", "100", "-o", study)
    assert proc.returncode == 0, proc.stderr
    assert (study / "cells" / "idle-1000us.json").read_bytes() == first  # kept, not measured again
    assert cell(study, "idle-2000us")["rt"]["stopped"] == "completed"
    assert json.loads((study / "study.json").read_text())["cells"] == ["idle-1000us", "idle-2000us"]
    other = rt("run", "--loads", "idle", "--loops", "300", "-o", study)
    assert other.returncode == 2
    reason = "holds a study measured with other options (use another directory, or the same options)"
    assert other.stderr.strip() == f"portkit: error: {study}: {reason}"


def test_ctrl_c_keeps_what_was_measured(tmp_path: Path) -> None:
    study = tmp_path / "study"
    args = ["run", "--loads", "idle", "--intervals", "1000,500", "--duration", "60", "-o", str(study)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "portkit", "rt", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not (study / "study.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)  # the first cell is under way
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == f"portkit: interrupted; the cells measured so far are in {study}"
    interrupted = cell(study, "idle-1000us")["rt"]
    assert interrupted["stopped"] == "interrupted" and interrupted["duration_s"] < 30
    assert all(t["samples"] > 0 for t in interrupted["threads"])
    assert not (study / "cells" / "idle-500us.json").exists()
    table = rt("table", study)
    assert "idle (interrupted)" in table.stdout


def test_no_rt_is_labelled_in_the_table(tmp_path: Path) -> None:
    study = tmp_path / "study"
    assert rt("run", "--loads", "idle", "--loops", "50", "--no-rt", "-o", study).returncode == 0
    assert cell(study, "idle-1000us")["rt"]["config"]["rt"] is False
    assert "idle (no rt)" in rt("table", study).stdout


def test_an_emulated_target_measures_through_the_same_plumbing(tmp_path: Path) -> None:
    agent = ROOT / "build" / "aarch64-linux-gnu" / "portkit-target"
    if not agent.exists():
        pytest.skip(f"{agent} not built (make cross)")
    study = tmp_path / "emu"
    proc = rt("run", "--target", "qemu-aarch64", "--loads", "idle", "--loops", "50", "-o", study)
    assert proc.returncode == 0, proc.stderr
    description = json.loads((study / "study.json").read_text())
    assert description["target"] == "qemu-aarch64"
    assert cell(study, "idle-1000us")["rt"]["sysinfo"]["kernel"]["machine"] == "aarch64"
    emulated = "EMULATED by qemu-user: these timings mean nothing about a board (plumbing only)"
    assert proc.stdout.splitlines()[1] == emulated


def test_a_load_runs_beside_the_measurement_and_reports_what_it_achieved(tmp_path: Path) -> None:
    study = tmp_path / "study"
    proc = rt("run", "--loads", "cpu", "--loops", "1000", "--load-options", "cpu=--duty 50 --workers 1", "-o", study)
    assert proc.returncode == 0, proc.stderr
    [load] = cell(study, "cpu-1000us")["loads"]
    assert (load["schema"], load["kind"], load["stopped"]) == ("portkit.load/1", "cpu", "interrupted")
    assert load["params"]["duty_percent"] == 50 and load["params"]["workers"] == 1
    # It ran through the settling second and the measurement (1000 loops of 1 ms), then was asked to end.
    assert load["duration_s"] >= 1.9 and load["achieved"]["workers_cpu_percent"] > 0
    assert load["cleanup"] == {**load["cleanup"], "processes_left": 0, "descriptors_left": 0}
    assert json.loads((study / "study.json").read_text())["measure"]["load_options"] == {"cpu": "--duty 50 --workers 1"}
    assert "cpu " in rt("table", study).stdout.splitlines()[-1]


def test_a_load_the_agent_refuses_stops_the_study_before_measuring(tmp_path: Path) -> None:
    study = tmp_path / "study"
    proc = rt("run", "--loads", "cpu", "--loops", "100", "--load-options", "cpu=--bogus", "-o", study)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--bogus" in proc.stderr
    assert not (study / "cells" / "cpu-1000us.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--loads", "idle,bogus"], "--loads: unknown load 'bogus'"),
        (["--loads", "cmd"], "--loads cmd needs --cmd 'COMMAND'"),
        (["--intervals", "0"], "--intervals 0: each from 1 us to 10 s"),
        (["--intervals", "fast"], "--intervals fast: whole numbers of microseconds, comma-separated"),
        (["--duration", "-1"], "--duration -1: not from 0 to a week of seconds"),
        (["--load-options", "disk=--fast"], "--load-options disk=--fast: KIND=OPTIONS with KIND one of cpu"),
        (["--load-options", "cpu='--duty"], "--load-options cpu='--duty: No closing quotation"),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    proc = rt("run", *args, "-o", tmp_path / "x")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and message in proc.stderr and "Traceback" not in proc.stderr


def test_sysinfo_in_words_and_as_the_agents_document() -> None:
    document = json.loads(rt("sysinfo", "--format", "json").stdout)
    assert document["schema"] == "portkit.rt-sysinfo/1" and document["target"] == "local"
    text = rt("sysinfo").stdout.splitlines()
    names = [line.split("  ")[0] for line in text if line and not line.startswith(" ")]
    assert names[:4] == ["kernel", "preemption", "timer", "cpus"]
    kernel = document["kernel"]
    assert text[0].split(None, 1)[1].startswith(f"{kernel['release']} {kernel['machine']}")
    warnings = document["warnings"]
    assert (f"{len(warnings)} warnings:" in text) == bool(warnings)
    for warning in warnings:
        assert f"  {warning['about']}: {warning['message']}" in text
