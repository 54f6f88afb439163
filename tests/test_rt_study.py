"""`portkit rt run` end to end with the real agent: a study's directory (its
description, the target's facts, one file per cell), going on where an
earlier run stopped, Ctrl-C keeping what was measured, loads that report what
they achieved, an emulated target, and bad options as one line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_portkit
from terminal import ESCAPES, run_on_terminal

CPUS = len(os.sched_getaffinity(0))


def rt(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return run_portkit("rt", *args, timeout=timeout)


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
    other = rt("run", "--loads", "idle", "--loops", "300", "--no-rt", "-o", study)
    assert other.returncode == 2
    assert other.stderr.strip() == (
        f"portkit: error: {study}: holds a study measured with other options: --loops 100 (this run: --loops 300); "
        "--policy fifo (this run: --no-rt). Give its options to go on with it, --restart to measure it again "
        "with these, or another directory"
    )


def test_a_complete_study_says_that_nothing_new_was_measured(tmp_path: Path) -> None:
    study = tmp_path / "study"
    args = ["run", "--loads", "idle", "--intervals", "1000,2000", "--loops", "50", "-o", study]
    first = rt(*args)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    again = rt(*args)
    assert again.returncode == 0 and again.stdout == first.stdout
    assert again.stderr == (
        f"portkit: warning: nothing new was measured: all 2 cells were complete already in {study} "
        "(--restart measures again)\n"
    )


def test_a_refused_run_writes_nothing_and_the_corrected_one_runs(tmp_path: Path) -> None:
    study = tmp_path / "study"
    refused = rt("run", "--loads", "idle", "--loops", "50", "--cpus", "1023", "-o", study)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--cpus" in refused.stderr
    assert not study.exists()
    study.mkdir()
    load = rt("run", "--loads", "cpu", "--loops", "50", "--load-options", "cpu=--bogus", "-o", study)
    assert load.returncode == 2 and load.stderr.startswith(
        "portkit: error: --load-options 'cpu=--bogus': the cpu load refused it: unknown option '--bogus'"
    )
    assert list(study.iterdir()) == []
    command = rt("run", "--loads", "cmd", "--cmd", "no-such-command-here --vm 2", "--loops", "50", "-o", study)
    assert command.returncode == 3 and command.stderr == (
        "portkit: error: --cmd 'no-such-command-here --vm 2': the command exited with status 127 before the "
        "measurement began (127: the shell found no such command)\n"
    )
    assert list(study.iterdir()) == []
    proc = rt("run", "--loads", "idle", "--loops", "50", "--cpus", "0", "-o", study)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((study / "study.json").read_text())["measure"]["cpus"] == "0"


def test_restart_measures_again_and_keeps_nothing_stale(tmp_path: Path) -> None:
    study = tmp_path / "study"
    assert rt("run", "--loads", "idle", "--intervals", "1000,2000", "--loops", "50", "-o", study).returncode == 0
    assert rt("plot", study).returncode == 0
    assert (study / "plots" / "histogram-2000us.png").exists()
    proc = rt("run", "--loads", "idle", "--intervals", "500", "--loops", "60", "--restart", "-o", study)
    assert proc.returncode == 0, proc.stderr
    description = json.loads((study / "study.json").read_text())
    assert description["cells"] == ["idle-500us"] and description["measure"]["loops"] == 60
    assert sorted(p.name for p in (study / "cells").iterdir()) == ["idle-500us.json"]
    assert list((study / "plots").iterdir()) == []
    assert [line.split()[0] for line in proc.stdout.splitlines()[3:]] == ["idle"]


def test_restart_keeps_only_the_traces_it_saved(tmp_path: Path) -> None:
    study = tmp_path / "study"
    broke = rt("run", "--loads", "idle", "--intervals", "1000,2000", "--loops", "50", "--break", "0", "-o", study)
    assert broke.returncode == 0, broke.stderr
    for name in ("idle-1000us", "idle-2000us"):  # whether or not tracefs let the agent save them
        (study / "cells" / f"{name}-trace.txt").write_text("an earlier trace\n")
    proc = rt("run", "--loads", "idle", "--loops", "50", "--break", "0", "--restart", "-o", study)
    assert proc.returncode == 0, proc.stderr
    saved = cell(study, "idle-1000us")["rt"]["break"]["trace_file"]
    expected = ["idle-1000us.json", *(["idle-1000us-trace.txt"] if saved else [])]
    assert sorted(p.name for p in (study / "cells").iterdir()) == sorted(expected)
    # A threshold never reached saves no trace: the earlier one of that cell goes too.
    (study / "cells" / "idle-1000us-trace.txt").write_text("an earlier trace\n")
    proc = rt("run", "--loads", "idle", "--loops", "50", "--break", "10000000", "--restart", "-o", study)
    assert proc.returncode == 0, proc.stderr
    assert cell(study, "idle-1000us")["rt"]["break"]["trace_file"] is None
    assert sorted(p.name for p in (study / "cells").iterdir()) == ["idle-1000us.json"]


def test_ctrl_c_keeps_what_was_measured(tmp_path: Path) -> None:
    study = tmp_path / "study"
    args = ["run", "--loads", "idle", "--intervals", "1000,500", "--duration", "60", "-o", str(study)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "portkit", "rt", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_measuring(proc.pid)
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
    # The same command goes on with the interrupted cell; --timeout ends it the same way, keeping it.
    again = rt(*args, "--timeout", "2")
    assert again.returncode == 3, again.stderr
    assert again.stderr.splitlines()[-1] == (
        "portkit: error: rt run: --timeout 2 s ended the study with 0 cells of 2 complete; "
        "the same command goes on where it stopped"
    )
    measured_again = cell(study, "idle-1000us")["rt"]
    assert measured_again["stopped"] == "interrupted" and measured_again["started"] != interrupted["started"]
    assert "idle (interrupted)" in again.stdout and not (study / "cells" / "idle-500us.json").exists()


def wait_for_measuring(pid: int) -> None:
    """Until portkit's `portkit-target rt` (its measurement, not sysinfo) runs."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for child in Path("/proc").glob("[0-9]*"):
            try:
                stat = (child / "stat").read_text()
                words = (child / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == str(pid) and b"--progress" in words:
                return
        time.sleep(0.1)
    raise AssertionError("the measurement did not start within a minute")


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
        (["--duration", "-1"], "--duration: -1 is not above 0 and up to 604800 seconds"),
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
    for warning in warnings:  # each after its rule id (PKS1xx), as findings show theirs
        assert f"  {warning['id']} {warning['about']}: {warning['message']}" in text


def test_progress_on_a_terminal_names_the_cell_and_the_time_left(tmp_path: Path) -> None:
    args = ["rt", "run", "--loads", "idle,cpu", "--duration", "1", "-o", str(tmp_path / "study")]
    screen = run_on_terminal(args, columns=80)
    assert screen.returncode == 0, screen.raw
    shown = [piece.strip() for piece in ESCAPES.sub("", screen.raw).split("\r")]
    assert any(re.fullmatch(r"cell 1 of 2, idle-1000us: \d+ s, about \d+ s left(; max \d+ us)?", p) for p in shown)
    assert "cell 2 of 2, cpu-1000us: starting the load" in shown
    assert screen.lines[0].startswith(f"{tmp_path / 'study'}, local")  # the line is gone before the table
    quiet = run_on_terminal([*args, "--quiet", "--restart"], columns=80)
    assert quiet.returncode == 0 and "cell 1 of 2" not in quiet.raw
    piped = rt(*args[1:], "--restart")
    assert piped.returncode == 0 and piped.stderr == ""


def test_a_timerlat_that_could_not_run_is_said_and_noted_under_the_table(tmp_path: Path) -> None:
    study = tmp_path / "study"
    proc = rt("run", "--loads", "idle", "--loops", "50", "--timerlat", "-o", study)
    assert proc.returncode == 0, proc.stderr
    timerlat = cell(study, "idle-1000us")["rt"]["timerlat"]
    note = f"--timerlat did not run in idle-1000us: {timerlat['why']}"
    if timerlat["ran"]:  # a kernel with the tracer: nothing to say
        assert note not in proc.stderr and "note:" not in proc.stdout
        return
    assert proc.stderr == f"portkit: warning: {note}\n"
    assert proc.stdout.splitlines()[-1] == f"note: {note}"
    assert json.loads(rt("table", study, "--format", "json").stdout)["notes"] == [note]


def test_a_damaged_study_is_one_line_and_restart_starts_it_over(tmp_path: Path) -> None:
    study = tmp_path / "study"
    study.mkdir()
    (study / "study.json").write_text("{not json")
    refused = rt("run", "--loads", "idle", "--loops", "50", "-o", study)
    assert refused.returncode == 2
    assert refused.stderr == f"portkit: error: {study / 'study.json'}: not a portkit study (invalid JSON)\n"
    proc = rt("run", "--loads", "idle", "--loops", "50", "--restart", "-o", study)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((study / "study.json").read_text())["cells"] == ["idle-1000us"]
