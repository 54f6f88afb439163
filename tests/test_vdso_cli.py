"""`portkit vdso` as a user meets it: the words of its reports (the field
report's loop by its subject), verify without a vDSO, emulated timings said
so, tables that fit an 80-column terminal, and one-line errors. The agent's
own documents are tested in test_agent_vdso.py."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from terminal import run_on_terminal
from test_wording import OLD_WORD

HOST = [sys.executable, "-m", "portkit", "vdso"]
NOTHING_TO_VERIFY = "this process has no vDSO, so there is nothing to verify"
EMULATED = "EMULATED by qemu-user: these timings mean nothing about a board"


def vdso(*args: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*HOST, *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == expect, f"exit {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc


def keys(value: object) -> set[str]:
    """Every key of a JSON document, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_bench_names_the_field_reports_loop(host_agent: Path) -> None:
    out = vdso("bench", "--agent", str(host_agent), "--repeat", "1").stdout
    total = next(line for line in out.splitlines() if line.startswith("total "))
    assert "500000 gettimeofday calls, as in the compat-vDSO field report, take" in total
    assert OLD_WORD not in out
    out = vdso("bench", "--agent", str(host_agent), "--calls", "1000", "--repeat", "1").stdout
    assert "1000 gettimeofday calls take " in out and "field report" not in out


def test_bench_json_says_what_its_keys_are(host_agent: Path) -> None:
    document = json.loads(vdso("bench", "--agent", str(host_agent), "--calls", "1000", "--format", "json").stdout)
    assert document["schema"] == "portkit.vdso-bench/2"
    assert document["gettimeofday_loop"]["calls"] == 1000
    assert not {k for k in keys(document) if OLD_WORD in k}


def test_no_vdso_json_says_what_its_keys_are(cross_agent: Callable) -> None:
    agent = cross_agent("aarch64-linux-gnu")[-1]
    document = json.loads(vdso("--target", "qemu-aarch64", "--agent", agent, "--format", "json").stdout)
    assert document["schema"] == "portkit.vdso/2"
    assert document["no_vdso"]["gettimeofday_loop"]["calls"] == 500000
    assert not {k for k in keys(document) if OLD_WORD in k}


def test_verify_without_a_vdso_has_nothing_to_verify(cross_agent: Callable) -> None:
    """Not a failed check (exit 1): the environment cannot be verified (exit 3), said in one line."""
    agent = cross_agent("arm-linux-gnueabihf")[-1]
    proc = vdso("verify", "--target", "qemu-arm", "--agent", agent, expect=3)
    assert proc.stderr == f"portkit: error: {NOTHING_TO_VERIFY}\n"
    result = next(line for line in proc.stdout.splitlines() if line.startswith("result "))
    assert result.split(None, 1)[1] == "no vDSO, so nothing was verified: 0 pass, 0 fail, 0 unsupported, 1 absent"
    assert "No vDSO: every gettimeofday is a system call" in proc.stdout
    document = json.loads(vdso("verify", "--target", "qemu-arm", "--agent", agent, "--format", "json", expect=3).stdout)
    assert document["schema"] == "portkit.vdso-verify/2"
    assert document["ok"] is False and document["summary"]["absent"] == 1 and document["summary"]["fail"] == 0


def test_verify_says_which_entries_it_called_and_what_it_checked(host_agent: Path) -> None:
    out = " ".join(vdso("verify", "--agent", str(host_agent), "--iterations", "100").stdout.split())
    assert "entries __vdso_clock_gettime, __vdso_clock_getres, __vdso_gettimeofday, __vdso_time" in out
    assert "100 readings a check, each between two system calls (syscall <= vDSO <= syscall)" in out


@pytest.mark.parametrize("mode", [["bench", "--calls", "2000", "--repeat", "1"], ["list"]])
def test_emulated_timings_are_labelled(mode: list[str], cross_agent: Callable, host_agent: Path) -> None:
    """As rt does: under qemu-user the target is EMULATED, in the text and in the JSON."""
    agent = cross_agent("arm-linux-gnueabihf")[-1]
    out = vdso(*mode, "--target", "qemu-arm", "--agent", agent).stdout.splitlines()
    assert out[0].split() == ["target", "qemu-arm"] and out[1].strip() == EMULATED
    document = json.loads(vdso(*mode, "--target", "qemu-arm", "--agent", agent, "--format", "json").stdout)
    assert document["emulated"] is True
    assert EMULATED not in vdso(*mode, "--agent", str(host_agent)).stdout
    assert json.loads(vdso(*mode, "--agent", str(host_agent), "--format", "json").stdout)["emulated"] is False


@pytest.mark.parametrize(
    "argv",
    [["verify", "--iterations", "100"], ["bench", "--calls", "2000", "--repeat", "2"], ["list"]],
    ids=lambda argv: argv[0],
)
def test_reports_fit_80_columns(argv: list[str], cross_agent: Callable) -> None:
    """The i686 agent has the widest rows (clock_getres_time64, __vdso_clock_gettime64): every
    line fits, and no cell is cut to an ellipsis."""
    agent = cross_agent("i686-linux-gnu")[-1]
    screen = run_on_terminal(["vdso", *argv, "--agent", agent], columns=80)
    assert screen.returncode == 0, screen.raw
    assert all(len(line) <= 80 for line in screen.lines), "\n".join(screen.lines)
    assert "…" not in screen.raw
    text = "\n".join(screen.lines)
    if argv[0] == "verify":
        assert "  clock_getres_time64 " in text and "PROCESS_CPUTIME_ID" in text
    if argv[0] == "bench":
        assert "clock_gettime(MONOTONIC)" in text and "libc uses vDSO" in text
    if argv[0] == "list":
        assert "__vdso_clock_gettime64" in text


def test_output_to_a_directory_is_one_line(host_agent: Path, tmp_path: Path) -> None:
    proc = vdso("-o", str(tmp_path), "--agent", str(host_agent), expect=2)
    assert proc.stderr == f"portkit: error: -o {tmp_path}: is a directory (give a file name)\n"


def test_dump_to_a_directory_is_one_line(host_agent: Path, tmp_path: Path) -> None:
    proc = vdso("--dump", str(tmp_path), "--agent", str(host_agent), expect=2)
    assert proc.stderr == f"portkit: error: --dump {tmp_path}: is a directory (give a file name)\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv, line",
    [
        (["bench", "--image", "x"], "vdso bench: --image is a list option"),
        (["--image", "a", "--dump", "b"], "vdso list: --image and --dump cannot be combined"),
        (["bench", "--calls", "100000000", "--repeat", "11"], "vdso bench: --calls 100000000 x --repeat 11 is more"),
    ],
)
def test_errors_name_the_command_once(argv: list[str], line: str, tmp_path: Path) -> None:
    proc = vdso(*argv, "--agent", str(tmp_path / "absent"), expect=2)
    assert proc.stderr.startswith(f"portkit: error: {line}")
    assert len(proc.stderr.splitlines()) == 1
