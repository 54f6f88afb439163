"""`--target ssh:HOST`: the agent on a board reached through ssh, here an sshd
of the tests' own on 127.0.0.1 (scripts/throwaway-sshd: its own keys, never
the machine's). The board's files and processes are this machine's, so what
the agent left behind can be looked for."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import BUILD, ROOT


@pytest.fixture(scope="module")
def ssh_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment that makes `ssh:portkit-board` reach the throwaway sshd."""
    directory = tmp_path_factory.mktemp("sshd")
    proc = subprocess.run(
        [ROOT / "scripts" / "throwaway-sshd", directory], capture_output=True, text=True, timeout=60, check=False
    )
    if proc.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"no sshd for the tests: {proc.stderr.strip()}")
        pytest.skip(f"no sshd for the tests: {proc.stderr.strip()}")
    yield {**os.environ, "PORTKIT_SSH": f"ssh -F {proc.stdout.strip()}"}
    os.kill(int((directory / "sshd.pid").read_text()), signal.SIGTERM)


@pytest.fixture
def board_agent(tmp_path: Path) -> Path:
    """A copy of the host's agent at a path of this test's own, to find its processes by."""
    agent = BUILD / "host" / "portkit-target"
    if not agent.exists():
        pytest.skip(f"{agent} is missing (make native)")
    copy = tmp_path / "board" / "portkit-target"
    copy.parent.mkdir()
    shutil.copy2(agent, copy)
    return copy


def portkit(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "portkit", *map(str, args)], capture_output=True, text=True, timeout=180, env=env
    )


def running(agent: Path) -> list[str]:
    """The agent's processes: those it runs as, not the portkit and ssh whose arguments name it."""
    proc = subprocess.run(["pgrep", "-af", str(agent)], capture_output=True, text=True, check=False)
    return [line for line in proc.stdout.splitlines() if line.split()[1] == str(agent)]


def test_the_board_answers_as_the_local_agent_does(ssh_env: dict[str, str], board_agent: Path) -> None:
    remote = portkit(ssh_env, "cpu", "--target", "ssh:portkit-board", "--agent", board_agent, "--format", "json")
    local = portkit(ssh_env, "cpu", "--agent", board_agent, "--format", "json")
    assert remote.returncode == 0 and remote.stderr == "", remote.stderr
    there, here = json.loads(remote.stdout), json.loads(local.stdout)
    assert there["target"] == "ssh:portkit-board"
    assert (there["features"], there["model"], there["agent"]) == (here["features"], here["model"], here["agent"])


def test_no_agent_on_the_board_is_one_line_with_the_fix(ssh_env: dict[str, str], tmp_path: Path) -> None:
    proc = portkit(ssh_env, "cpu", "--target", "ssh:portkit-board", "--agent", tmp_path / "nowhere")
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1, proc.stderr
    assert "no agent at" in proc.stderr and "copy build/<triple>/portkit-target to the board" in proc.stderr


def test_a_board_that_does_not_answer_is_one_line(ssh_env: dict[str, str]) -> None:
    proc = portkit(ssh_env, "vdso", "--target", "ssh:portkit-board:1")  # nothing listens on port 1
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1, proc.stderr
    assert "ssh failed" in proc.stderr and "Connection refused" in proc.stderr


@pytest.mark.parametrize("spec", ["ssh:", "ssh:-oProxyCommand=x", "ssh:two words"])
def test_a_malformed_ssh_target_is_bad_usage(ssh_env: dict[str, str], spec: str) -> None:
    proc = portkit(ssh_env, "cpu", "--target", spec)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "ssh:[USER@]HOST[:PORT]" in proc.stderr


def test_an_interrupted_study_stops_the_agent_on_the_board(
    ssh_env: dict[str, str], board_agent: Path, tmp_path: Path
) -> None:
    """Ending the local ssh would leave the agent running on the board (no
    terminal, no SIGHUP): SIGINT here must reach it as SIGTERM there, and the
    cell keep what it measured."""
    out = tmp_path / "study"
    args = ["rt", "run", "--target", "ssh:portkit-board", "--agent", board_agent, "--no-rt"]
    study = subprocess.Popen(
        [sys.executable, "-m", "portkit", *map(str, args), "--loads", "idle", "--duration", "60", "-o", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ssh_env,
    )
    deadline = time.monotonic() + 30
    while not running(board_agent) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert running(board_agent), "the agent never started on the board"
    time.sleep(1.5)
    study.send_signal(signal.SIGINT)
    _, err = study.communicate(timeout=60)
    assert study.returncode == 130, err
    cell = json.loads((out / "cells" / "idle-1000us.json").read_text())
    rt = cell.get("rt", cell)
    assert rt["stopped"] == "interrupted" and rt["threads"][0]["samples"] > 100
    deadline = time.monotonic() + 10
    while running(board_agent) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert running(board_agent) == []
