"""`--target ssh:HOST`: the agent on a board reached through ssh, here an sshd
of the tests' own on 127.0.0.1 and ::1 (scripts/throwaway-sshd: its own keys,
never the machine's). The board's files and processes are this machine's, so
what the agent left behind can be looked for, and its sshd's log counts the
logins."""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import BUILD, ROOT


def throwaway_sshd(directory: Path, home: Path | None = None) -> dict[str, str]:
    proc = subprocess.run(
        [ROOT / "scripts" / "throwaway-sshd", directory, *([home] if home else [])],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"no sshd for the tests: {proc.stderr.strip()}")
        pytest.skip(f"no sshd for the tests: {proc.stderr.strip()}")
    return {**os.environ, "PORTKIT_SSH": f"ssh -F {proc.stdout.strip()}"}


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The throwaway sshd's directory (ssh_config, port, sshd.pid, sshd.log)."""
    directory = tmp_path_factory.mktemp("sshd")
    throwaway_sshd(directory)
    yield directory
    os.kill(int((directory / "sshd.pid").read_text()), signal.SIGTERM)


@pytest.fixture(scope="module")
def ssh_env(sshd: Path) -> dict[str, str]:
    """The environment that makes `ssh:portkit-board` reach the throwaway sshd."""
    return {**os.environ, "PORTKIT_SSH": f"ssh -F {sshd / 'ssh_config'}"}


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


def portkit(env: dict[str, str], *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "portkit", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=cwd,
    )


Starter = Callable[..., subprocess.Popen[str]]


@pytest.fixture
def start() -> Iterator[Starter]:
    """Starts portkit in the background; whatever a failed test left running is killed at its end."""
    started: list[subprocess.Popen[str]] = []

    def starter(env: dict[str, str], *args: str | Path) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "portkit", *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        started.append(proc)
        return proc

    yield starter
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # portkit stops its agent on the board
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()


def running(agent: Path | str) -> list[str]:
    """The agent's processes: those it runs as, not the portkit and ssh whose arguments name it."""
    proc = subprocess.run(["pgrep", "-af", str(agent)], capture_output=True, text=True, check=False)
    return [line for line in proc.stdout.splitlines() if line.split()[1].startswith(str(agent))]


def copies() -> set[Path]:
    """The board's temporary directories that hold a copied agent (the board is this machine)."""
    return set(Path(os.environ.get("TMPDIR", "/tmp")).glob("portkit.*"))


def logins(sshd: Path) -> int:
    return (sshd / "sshd.log").read_text().count("Accepted publickey")


def measuring(agent: Path) -> list[str]:
    """The agent's processes that measure latency (rt sysinfo's short run comes first)."""
    return [line for line in running(agent) if " rt --interval " in line]


def wait_for(condition: Callable[[], object], seconds: float = 30) -> bool:
    """Whether condition held before the time ran out, as the check that ended the wait saw it
    (asking again could see a short-lived process gone)."""
    deadline = time.monotonic() + seconds
    while not (held := bool(condition())) and time.monotonic() < deadline:
        time.sleep(0.1)
    return held


def test_the_board_answers_as_the_local_agent_does(ssh_env: dict[str, str], board_agent: Path) -> None:
    remote = portkit(ssh_env, "cpu", "--target", "ssh:portkit-board", "--agent", board_agent, "--format", "json")
    local = portkit(ssh_env, "cpu", "--agent", board_agent, "--format", "json")
    assert remote.returncode == 0 and remote.stderr == "", remote.stderr
    there, here = json.loads(remote.stdout), json.loads(local.stdout)
    assert there["target"] == "ssh:portkit-board"
    assert (there["features"], there["model"], there["agent"]) == (here["features"], here["model"], here["agent"])


def test_the_boards_own_agent_is_copied_there_and_removed(ssh_env: dict[str, str], start: Starter) -> None:
    """Nothing copied by hand: the board's architecture read from uname -m and
    its /bin/sh, that agent copied to a private directory, run, removed."""
    before = copies()
    bench = start(ssh_env, "vdso", "bench", "--target", "ssh:portkit-board", "--calls", "200000", "--format", "json")
    seen: list[str] = []
    assert wait_for(lambda: bool(seen.extend(running(Path(os.environ.get("TMPDIR", "/tmp")) / "portkit.")) or seen))
    out, err = bench.communicate(timeout=180)
    assert bench.returncode == 0, err
    program = Path(seen[0].split()[1])
    assert program.name == "portkit-target" and program.parent.name.startswith("portkit.")
    document = json.loads(out)
    shell = subprocess.run(["readelf", "-h", "/bin/sh"], capture_output=True, text=True).stdout
    assert document["board"]["machine"] == platform.machine()
    assert document["board"]["userland"].startswith("ELF64" if "ELF64" in shell else "ELF32")
    assert document["board"]["agent_copied"] == document["agent"]["arch"] == "x86_64"
    assert copies() == before, "the agent's copy was left on the board"


def test_the_32_bit_agent_on_a_64_bit_board(ssh_env: dict[str, str]) -> None:
    proc = portkit(ssh_env, "vdso", "--target", "ssh:portkit-board", "--agent-arch", "i686", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert (document["process"]["arch"], document["compat"], document["board"]["agent_copied"]) == (
        "i686",
        True,
        "i686",
    )


def test_one_ssh_connection_for_a_whole_study(ssh_env: dict[str, str], sshd: Path, tmp_path: Path) -> None:
    """rt sysinfo, two loads' agents and two measurements: one login."""
    before = logins(sshd)
    args = ("rt", "run", "--target", "ssh:portkit-board", "--no-rt", "--loads", "idle,cpu,spawn", "--duration", "1")
    proc = portkit(ssh_env, *args, "-o", tmp_path / "study")
    assert proc.returncode == 0, proc.stderr
    assert wait_for(lambda: logins(sshd) > before, 5)
    assert logins(sshd) - before == 1


def test_an_ipv6_literal(ssh_env: dict[str, str], sshd: Path) -> None:
    try:
        socket.create_connection(("::1", int((sshd / "port").read_text())), timeout=5).close()
    except OSError as err:
        pytest.skip(f"no IPv6 loopback here: {err}")
    spec = f"ssh:[::1]:{(sshd / 'port').read_text().strip()}"
    proc = portkit(ssh_env, "cpu", "--target", spec, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["target"] == spec


def test_host_keys_are_checked_as_ssh_checks_them(sshd: Path, tmp_path: Path) -> None:
    """portkit leaves ssh's host key checking alone: an unknown key is one line, not a prompt."""
    known = tmp_path / "known_hosts"
    known.write_text("")
    env = {
        **os.environ,
        "PORTKIT_SSH": f"ssh -F {sshd / 'ssh_config'} -o StrictHostKeyChecking=yes -o UserKnownHostsFile={known}",
    }
    proc = portkit(env, "cpu", "--target", "ssh:portkit-board")
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1, proc.stderr
    assert "Host key verification failed" in proc.stderr and "once by hand" in proc.stderr


def test_no_agent_at_the_given_path_is_one_line(ssh_env: dict[str, str], tmp_path: Path) -> None:
    proc = portkit(ssh_env, "cpu", "--target", "ssh:portkit-board", "--agent", tmp_path / "nowhere")
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"no agent at {tmp_path / 'nowhere'} on the board" in proc.stderr
    assert "without --agent, portkit copies the board's agent there itself" in proc.stderr


def test_an_agent_path_is_used_as_given(tmp_path: Path, board_agent: Path) -> None:
    """`--agent ./portkit-target` is the one in the login directory, not one on the board's PATH."""
    home = board_agent.parent
    env = throwaway_sshd(tmp_path / "sshd", home)
    try:
        proc = portkit(env, "cpu", "--target", "ssh:portkit-board", "--agent", "./portkit-target", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        bare = portkit(env, "cpu", "--target", "ssh:portkit-board", "--agent", "portkit-target")
        assert bare.returncode == 3 and "no agent at portkit-target on the board" in bare.stderr  # PATH has none
    finally:
        os.kill(int((tmp_path / "sshd" / "sshd.pid").read_text()), signal.SIGTERM)


def test_a_board_that_does_not_answer_is_one_line(ssh_env: dict[str, str]) -> None:
    proc = portkit(ssh_env, "vdso", "--target", "ssh:portkit-board:1")  # nothing listens on port 1
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1, proc.stderr
    assert "ssh failed" in proc.stderr and "Connection refused" in proc.stderr


@pytest.mark.parametrize("spec", ["ssh:", "ssh:-oProxyCommand=x", "ssh:two words"])
def test_a_malformed_ssh_target_is_bad_usage(ssh_env: dict[str, str], spec: str) -> None:
    proc = portkit(ssh_env, "cpu", "--target", spec)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "ssh:[USER@]HOST[:PORT]" in proc.stderr


def test_an_interrupted_study_stops_the_agent_on_the_board(
    ssh_env: dict[str, str], board_agent: Path, tmp_path: Path, start: Starter
) -> None:
    """Ending the local ssh would leave the agent running on the board (no
    terminal, no SIGHUP): SIGINT here must reach it as SIGTERM there, and the
    cell keep what it measured."""
    out = tmp_path / "study"
    args = ["rt", "run", "--target", "ssh:portkit-board", "--agent", board_agent, "--no-rt"]
    study = start(ssh_env, *args, "--loads", "idle", "--duration", "60", "-o", out)
    assert wait_for(lambda: measuring(board_agent)), f"the agent never measured on the board: {study.poll()=}"
    time.sleep(1.5)
    study.send_signal(signal.SIGINT)
    _, err = study.communicate(timeout=60)
    assert study.returncode == 130, err
    cell = json.loads((out / "cells" / "idle-1000us.json").read_text())
    rt = cell.get("rt", cell)
    assert rt["stopped"] == "interrupted" and rt["threads"][0]["samples"] > 100
    assert wait_for(lambda: not running(board_agent), 10)


DELAY = "3.21"  # seconds a slow board's shell waits before naming the agent; a number to find its sleep by


def slow_board(tmp_path: Path, sshd: Path) -> dict[str, str]:
    """An ssh whose board waits DELAY seconds before its shell names the agent's process."""
    wrapper = tmp_path / "slow-ssh"
    wrapper.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "argv = sys.argv[1:]\n"
        'if argv and argv[-1].startswith("echo \'portkit-target pid "):\n'
        f"    argv[-1] = 'sleep {DELAY}; ' + argv[-1]\n"
        f"os.execvp('ssh', ['ssh', '-F', {str(sshd / 'ssh_config')!r}, *argv])\n"
    )
    wrapper.chmod(0o755)
    return {**os.environ, "PORTKIT_SSH": str(wrapper)}


def delays() -> set[str]:
    """The slow board's shells still waiting to name their agent."""
    proc = subprocess.run(["pgrep", "-f", f"^sleep {DELAY}$"], capture_output=True, text=True, check=False)
    return set(proc.stdout.split())


def test_ctrl_c_before_the_board_names_the_agent_still_stops_it(
    sshd: Path, board_agent: Path, tmp_path: Path, start: Starter
) -> None:
    """Ctrl-C while the board has not yet said the agent's pid: the agent is
    killed on the board once it does, and the user is told of the
    interruption, not of an ssh failure."""
    env = slow_board(tmp_path, sshd)
    bench = start(env, "vdso", "bench", "--target", "ssh:portkit-board", "--agent", board_agent, "--calls", "5000000")
    assert wait_for(delays), "the board never started the agent"
    bench.send_signal(signal.SIGINT)
    _, err = bench.communicate(timeout=60)
    assert bench.returncode == 130 and "ssh failed" not in err, err
    assert wait_for(lambda: not delays(), 10)
    time.sleep(1)  # the agent would be running by now, had it not been killed
    assert running(board_agent) == []


def test_a_study_stopped_before_the_board_names_the_agent_keeps_its_cell(
    sshd: Path, board_agent: Path, tmp_path: Path, start: Starter
) -> None:
    """finish() before the pid line: the SIGTERM waits for it, then the agent
    ends early and the cell keeps what it measured."""
    env = slow_board(tmp_path, sshd)
    out = tmp_path / "study"
    args = ["rt", "run", "--target", "ssh:portkit-board", "--agent", board_agent, "--no-rt", "--loads", "idle"]
    study = start(env, *args, "--duration", "60", "-o", out)
    seen: set[str] = set()

    def measurement_waits() -> bool:  # the second agent started: rt sysinfo's came first
        now = delays()
        seen.update(now)
        return len(seen) >= 2 and bool(now)

    assert wait_for(measurement_waits, 60), "the measurement never started"
    study.send_signal(signal.SIGINT)
    _, err = study.communicate(timeout=60)
    assert study.returncode == 130 and "ssh failed" not in err, err
    rt = json.loads((out / "cells" / "idle-1000us.json").read_text())["rt"]
    assert rt["stopped"] == "interrupted"
    assert wait_for(lambda: not running(board_agent), 10)


def test_a_connection_lost_mid_study_keeps_what_was_measured(
    ssh_env: dict[str, str], sshd: Path, tmp_path: Path, start: Starter
) -> None:
    """The board's connection dies during the second cell: the first is kept,
    the error names the target and what was lost, exit 3."""
    out = tmp_path / "study"
    args = ["rt", "run", "--target", "ssh:portkit-board", "--no-rt", "--loads", "idle,cpu", "--duration", "4"]
    study = start(ssh_env, *args, "-o", out)
    assert wait_for(lambda: (out / "cells" / "idle-1000us.json").exists(), 60), "the first cell never came"
    time.sleep(1.5)  # the second cell under way
    daemon = int((sshd / "sshd.pid").read_text())
    sessions = subprocess.run(["pgrep", "-P", str(daemon)], capture_output=True, text=True).stdout.split()
    assert sessions, "no ssh connection to the board to cut"
    for pid in sessions:
        os.kill(int(pid), signal.SIGKILL)
    _, err = study.communicate(timeout=120)
    assert study.returncode == 3, err
    error = [line for line in err.splitlines() if line.startswith("portkit: error:")]
    assert len(error) == 1, err
    assert "ssh:portkit-board" in error[0] and "connection to the board was lost" in error[0]
    assert "the 1 cell measured before are kept" in error[0]
    idle = json.loads((out / "cells" / "idle-1000us.json").read_text())
    assert idle["rt"]["stopped"] == "completed"
    assert not (out / "cells" / "cpu-1000us.json").exists()
