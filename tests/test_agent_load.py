"""`portkit-target load KIND`, black box: each kind briefly, its portkit.load/1 document, SIGTERM
mid-run, and that a load leaves nothing behind.

"Nothing behind" is checked from outside the agent:
- processes: every agent runs with a token in its environment, which its children and their
  children inherit; after the agent exits no process in /proc carries it (nor is in cmd's
  process group);
- files: io's temporary directory goes into a directory of the test's, empty afterwards;
- sockets: the socket inodes the agent held mid-run are bound to 127.0.0.1 only and are gone
  from /proc/net/{udp,tcp} afterwards, not even in TIME_WAIT.

Figures are checked for sense only, with wide bounds: this is a noisy 2-vCPU VM.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from conftest import run

SCHEMA = "portkit.load/1"
TOKEN = "PORTKIT_LOAD_TEST_TOKEN"
STARTED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

# kind -> (its arguments, params it reports, achieved fields it adds)
KINDS: dict[str, tuple[list[str], set[str], set[str]]] = {
    "cpu": (
        ["--duty", "50"],
        {"workers", "duty_percent", "period_ms", "cpus"},
        {"workers_cpu_percent", "worker_cpu_percent", "ops_per_s"},
    ),
    "spawn": ([], {"workers", "program"}, {"spawns_per_s", "spawns", "failed_spawns"}),
    "io": (
        ["--path", "/usr/share"],
        {"workers", "path", "dir", "write_bytes"},
        {"files_per_s", "files", "stat_errors", "walks", "bytes_per_s", "fsyncs_per_s", "bytes_written"},
    ),
    "net": ([], {"workers", "proto", "size_bytes"}, {"packets_per_s", "bytes_per_s", "packets_sent", "lost_percent"}),
    "mem": (
        ["--size", "16"],
        {"workers", "size_mib"},
        {"bytes_per_s", "write_bytes_per_s", "read_bytes_per_s", "copy_bytes_per_s"},
    ),
    "msg": ([], {"groups", "pairs", "size_bytes", "channel"}, {"messages_per_s", "bytes_per_s"}),
    "cmd": (
        ["--cmd", "while :; do :; done"],
        {"cmd", "grace_s"},
        {"command_cpu_percent", "exit_status", "signal", "ended_by", "process_group"},
    ),
}
# The figure that shows each kind did its work.
MAIN_FIGURE = {
    "cpu": "workers_cpu_percent",
    "spawn": "spawns_per_s",
    "io": "files_per_s",
    "net": "packets_per_s",
    "mem": "bytes_per_s",
    "msg": "messages_per_s",
    "cmd": "command_cpu_percent",
}


# ---------------------------------------------------------------- running and looking around


def environment(token: str, tmp: Path) -> dict[str, str]:
    return {**os.environ, TOKEN: token, "TMPDIR": str(tmp)}


def start_load(
    agent: Sequence[str | os.PathLike[str]], args: Sequence[str], token: str, tmp: Path
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*map(str, agent), "load", *args, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(token, tmp),
    )


def run_load(
    agent: Sequence[str | os.PathLike[str]], args: Sequence[str], token: str, tmp: Path, exit_code: int = 0
) -> dict:
    proc = subprocess.run(
        [*map(str, agent), "load", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(token, tmp),
    )
    assert proc.returncode == exit_code, f"exit {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}"
    return json.loads(proc.stdout)


def processes() -> Iterator[tuple[int, bytes, str]]:
    """(pid, environment, /proc/PID/stat) of every process readable now."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / "environ").read_bytes(), (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile


def process_group(stat: str) -> int:
    return int(stat[stat.rindex(")") + 2 :].split()[2])


def left_behind(token: str, group: int | None = None) -> list[str]:
    """The processes still carrying the token or in the group, a little after the agent ended
    (init may take a moment to reap what it adopted)."""
    marker = f"{TOKEN}={token}".encode()
    deadline = time.monotonic() + 3
    while True:
        found = [
            stat.strip()
            for pid, env, stat in processes()
            if pid != os.getpid()
            and (marker in env.split(b"\0") or (group is not None and process_group(stat) == group))
        ]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def check_document(doc: dict, kind: str, stopped: str = "completed") -> None:
    _args, params, achieved = KINDS[kind]
    assert doc["schema"] == SCHEMA
    assert set(doc["agent"]) == {"version", "arch", "data_model"}
    assert doc["kind"] == kind
    assert set(doc["params"]) == {"duration_s"} | params
    assert STARTED.match(doc["started"]), doc["started"]
    assert doc["stopped"] == stopped
    assert (doc["error"] is None) == (stopped != "error")
    assert doc["duration_s"] > 0
    assert set(doc["achieved"]) == {"cpu_percent", "system_busy_percent", "system_cpus"} | achieved
    assert doc["achieved"]["cpu_percent"] >= 0
    busy = doc["achieved"]["system_busy_percent"]
    assert busy is None or 0 <= busy <= 100
    for cpu in doc["achieved"]["system_cpus"] or []:
        assert set(cpu) == {"cpu", "busy_percent"}
    assert doc["cleanup"]["processes_left"] == 0
    assert doc["cleanup"]["descriptors_left"] == 0


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("portkit-target load: "), lines[0]
    return lines[0]


@pytest.fixture
def token() -> str:
    return uuid.uuid4().hex


# ---------------------------------------------------------------- each kind, about a second


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kind_runs_reports_and_leaves_nothing(host_agent: Path, tmp_path: Path, token: str, kind: str) -> None:
    doc = run_load([host_agent], [kind, *KINDS[kind][0], "--duration", "1"], token, tmp_path)
    check_document(doc, kind)
    assert 0.9 <= doc["duration_s"] <= 5
    assert doc["params"]["duration_s"] == 1
    assert doc["achieved"][MAIN_FIGURE[kind]] > 0
    group = doc["achieved"].get("process_group")
    assert left_behind(token, group) == []
    assert list(tmp_path.iterdir()) == []


def test_cpu_follows_its_duty_cycle(host_agent: Path, tmp_path: Path, token: str) -> None:
    half = run_load([host_agent], ["cpu", "--workers", "1", "--duty", "50", "--duration", "1.5"], token, tmp_path)
    full = run_load([host_agent], ["cpu", "--workers", "1", "--duration", "1"], token, tmp_path)
    (half_share,) = half["achieved"]["worker_cpu_percent"]
    (full_share,) = full["achieved"]["worker_cpu_percent"]
    # Wide bounds: the duty is kept by the wall clock, and other work here takes its share.
    assert 10 <= half_share <= 80, half_share
    assert full_share >= 25, full_share
    assert half_share <= full_share + 15, (half_share, full_share)
    assert half["achieved"]["cpu_percent"] >= 0.8 * half_share


def test_cpu_pinned_to_a_cpu(host_agent: Path, tmp_path: Path, token: str) -> None:
    doc = run_load([host_agent], ["cpu", "--cpus", "0", "--duration", "0.5"], token, tmp_path)
    assert doc["params"]["cpus"] == [0] and doc["params"]["workers"] == 1
    assert len(doc["achieved"]["worker_cpu_percent"]) == 1


def test_text_output(host_agent: Path) -> None:
    out = run([host_agent, "load", "mem", "--size", "8", "--workers", "1", "--duration", "0.3"]).stdout
    lines = out.splitlines()
    assert lines[0].startswith("load mem: completed after ")
    assert "size_mib 8" in lines[1]
    assert any(line.split()[0] == "bytes_per_s" for line in lines[2:])


# ---------------------------------------------------------------- stopping early


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_sigterm_gives_the_whole_document(host_agent: Path, tmp_path: Path, token: str, kind: str) -> None:
    proc = start_load([host_agent], [kind, *KINDS[kind][0], "--duration", "60"], token, tmp_path)
    time.sleep(0.6)
    began = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert time.monotonic() - began < 5  # cmd's --grace is 2 s
    doc = json.loads(out)
    check_document(doc, kind, stopped="interrupted")
    assert doc["duration_s"] < 10
    assert left_behind(token, doc["achieved"].get("process_group")) == []
    assert list(tmp_path.iterdir()) == []


def test_sigint_and_a_second_sigterm(host_agent: Path, tmp_path: Path, token: str) -> None:
    # A command that takes its time to stop: the second SIGTERM arrives while the agent
    # is stopping it, and must not cost the document.
    proc = start_load([host_agent], ["cmd", "--cmd", "trap '' TERM; sleep 60", "--grace", "1"], token, tmp_path)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0
    doc = json.loads(out)
    assert doc["stopped"] == "interrupted"
    assert doc["achieved"]["ended_by"] == "SIGKILL" and doc["achieved"]["signal"] == signal.SIGKILL
    assert left_behind(token, doc["achieved"]["process_group"]) == []


# ---------------------------------------------------------------- what cmd leaves


def test_cmd_descendants_that_hide_are_ended(host_agent: Path, tmp_path: Path, token: str) -> None:
    """Background jobs, a new session (setsid), a subshell's orphan and a shell that ignores
    SIGTERM: all ended, in at most --grace plus a little."""
    pids = tmp_path / "pids"
    script = (
        f"setsid sleep 61 & echo $! >> {pids}; (sleep 62 & echo $! >> {pids}); "
        f"sleep 63 & echo $! >> {pids}; trap '' TERM; sleep 64"
    )
    began = time.monotonic()
    doc = run_load([host_agent], ["cmd", "--cmd", script, "--duration", "1", "--grace", "0.5"], token, tmp_path)
    assert time.monotonic() - began < 4
    assert doc["stopped"] == "completed"
    assert doc["achieved"]["ended_by"] == "SIGKILL"
    assert left_behind(token, doc["achieved"]["process_group"]) == []
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 3
    assert [pid for pid in started if Path(f"/proc/{pid}").exists()] == []


def test_cmd_that_ends_by_itself(host_agent: Path, tmp_path: Path, token: str) -> None:
    ok = run_load([host_agent], ["cmd", "--cmd", "true", "--duration", "10"], token, tmp_path)
    assert ok["stopped"] == "completed" and ok["duration_s"] < 5
    assert (ok["achieved"]["exit_status"], ok["achieved"]["signal"], ok["achieved"]["ended_by"]) == (0, None, "itself")

    proc = subprocess.run(
        [str(host_agent), "load", "cmd", "--cmd", "exit 3", "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 3
    assert one_error_line(proc.stderr) == "portkit-target load: cmd: the command exited with status 3"
    failed = json.loads(proc.stdout)
    check_document(failed, "cmd", stopped="error")
    assert failed["error"] == "the command exited with status 3"
    assert failed["achieved"]["exit_status"] == 3


def test_cmd_output_stays_off_the_document(host_agent: Path, tmp_path: Path, token: str) -> None:
    proc = subprocess.run(
        [str(host_agent), "load", "cmd", "--cmd", "echo noise; echo more >&2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["achieved"]["exit_status"] == 0
    assert proc.stderr.split() == ["noise", "more"]


# ---------------------------------------------------------------- files and sockets


def test_io_works_in_a_private_directory_it_removes(host_agent: Path, tmp_path: Path, token: str) -> None:
    proc = start_load(
        [host_agent], ["io", "--path", "/usr/share", "--dir", str(tmp_path), "--duration", "60"], token, tmp_path
    )
    deadline = time.monotonic() + 10
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    made = list(tmp_path.iterdir())
    assert len(made) == 1 and made[0].name.startswith("portkit-load-"), made
    assert list(made[0].iterdir()) == []  # the file is unlinked as soon as it is open
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    doc = json.loads(out)
    assert doc["params"]["dir"] == str(tmp_path)
    assert doc["achieved"]["fsyncs_per_s"] > 0 and doc["achieved"]["bytes_written"] > 0
    assert list(tmp_path.iterdir()) == []


def test_io_without_a_place_to_write(host_agent: Path, tmp_path: Path) -> None:
    proc = run([host_agent, "load", "io", "--dir", str(tmp_path / "missing"), "--duration", "1"], check_exit=3)
    assert "cannot create a temporary directory in" in one_error_line(proc.stderr)
    assert proc.stdout == ""


def socket_table() -> dict[int, tuple[str, str]]:
    """inode -> (local address, state) of every IPv4 UDP and TCP socket."""
    table = {}
    for name in ("udp", "tcp"):
        for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
            fields = line.split()
            table[int(fields[9])] = (fields[1], fields[3])
    return table


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


@pytest.mark.parametrize("proto", ["udp", "tcp"])
def test_net_stays_on_loopback_and_closes_its_sockets(host_agent: Path, tmp_path: Path, token: str, proto: str) -> None:
    proc = start_load([host_agent], ["net", "--proto", proto, "--workers", "2", "--duration", "60"], token, tmp_path)
    time.sleep(0.6)
    table = socket_table()
    held = {inode: table[inode] for inode in socket_inodes(proc.pid) if inode in table}
    assert len(held) == 4, held  # two pairs, the TCP listeners already closed
    ports = set()
    for address, _state in held.values():
        ip, port = address.split(":")
        assert ip == "0100007F"  # 127.0.0.1
        ports.add(port)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert json.loads(out)["achieved"]["packets_per_s"] > 0
    after = socket_table()
    assert set(held) & set(after) == set()
    assert [
        entry for entry in after.values() if entry[0].split(":")[1] in ports and entry[0].startswith("0100007F")
    ] == []


# ---------------------------------------------------------------- usage and bounds


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "the kind of load comes first"),
        (["disk"], "unknown kind 'disk'"),
        (["cpu", "--bogus"], "unknown option '--bogus' (try --help)"),
        (["cpu", "--duty", "0"], "--duty '0': expected a whole number from 1 to 100"),
        (["cpu", "--duration", "0"], "--duration '0'"),
        (["cpu", "--cpus", "4096"], "--cpus '4096'"),
        (["io", "--duty", "50"], "--duty is not an option of load io (try --help)"),
        (["cmd"], "load cmd needs --cmd"),
        (["net", "--proto", "icmp"], "--proto 'icmp': expected udp or tcp"),
        (["msg", "--groups", "64", "--pairs", "64"], "more than 256 threads"),
        (["spawn", "--program", "/bin/ls"], "--program '/bin/ls': expected true or self"),
        (["io", "--path", "/no/such/dir"], "--path '/no/such/dir'"),
        (["cpu", "extra"], "unexpected argument 'extra'"),
    ],
)
def test_bad_usage(host_agent: Path, args: list[str], message: str) -> None:
    proc = run([host_agent, "load", *args], check_exit=2)
    assert message in one_error_line(proc.stderr)
    assert proc.stdout == ""


def test_help(host_agent: Path) -> None:
    out = run([host_agent, "load", "--help"]).stdout
    for kind in KINDS:
        assert f"\n  {kind} " in out
    assert "example" in out


def test_duration_is_a_bound(host_agent: Path, tmp_path: Path, token: str) -> None:
    began = time.monotonic()
    doc = run_load([host_agent], ["spawn", "--duration", "0.5"], token, tmp_path)
    assert time.monotonic() - began < 3
    assert doc["duration_s"] < 2.5


def test_spawn_self(host_agent: Path, tmp_path: Path, token: str) -> None:
    doc = run_load([host_agent], ["spawn", "--program", "self", "--workers", "1", "--duration", "0.5"], token, tmp_path)
    assert doc["params"]["program"] == "self" and doc["achieved"]["spawns"] > 0
    assert doc["achieved"]["failed_spawns"] == 0


# ---------------------------------------------------------------- the cross agents (plumbing)

# triple -> the arch the agent reports; mips is big-endian, with 64-bit atomics from libatomic.
CROSS = {"aarch64-linux-gnu": "aarch64", "arm-linux-gnueabihf": "arm", "mips-linux-gnu": "mips"}


@pytest.mark.parametrize("triple", CROSS)
@pytest.mark.parametrize("kind", ["cpu", "mem"])
def test_cross_agent(
    cross_agent: Callable[[str, str | None], list[str]], tmp_path: Path, token: str, triple: str, kind: str
) -> None:
    args = [kind, "--workers", "1", "--duration", "0.5", *(["--size", "8"] if kind == "mem" else [])]
    doc = run_load(cross_agent(triple, None), args, token, tmp_path)
    check_document(doc, kind)
    assert doc["agent"]["arch"] == CROSS[triple]
    assert doc["achieved"][MAIN_FIGURE[kind]] > 0
    # qemu-user 7.2 refuses PR_SET_CHILD_SUBREAPER; the load then finds descendants by their parents.
    assert isinstance(doc["cleanup"]["adopts_orphans"], bool)
    assert left_behind(token) == []


def test_cross_agent_cannot_run_itself_again(
    cross_agent: Callable[[str, str | None], list[str]], tmp_path: Path
) -> None:
    """Under qemu-user, this agent's own binary is foreign to the kernel: spawn --program self
    runs only where binfmt_misc hands it to qemu, and says so otherwise."""
    proc = subprocess.run(
        [*cross_agent("aarch64-linux-gnu", None), "load", "spawn", "--program", "self", "--duration", "0.3", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode == 0:
        assert json.loads(proc.stdout)["achieved"]["spawns"] > 0
    else:
        assert proc.returncode == 3
        assert "binfmt_misc, use --program true" in one_error_line(proc.stderr)


def test_cross_agent_ends_hiding_descendants_without_a_subreaper(
    cross_agent: Callable[[str, str | None], list[str]], tmp_path: Path, token: str
) -> None:
    """qemu-user refuses PR_SET_CHILD_SUBREAPER, so orphans go to init: the load finds the
    command's descendants through their parents while they live, and ends them all."""
    pids = tmp_path / "pids"
    script = f"setsid sleep 71 & echo $! >> {pids}; (sleep 72 & echo $! >> {pids}); sleep 73"
    doc = run_load(cross_agent("aarch64-linux-gnu", None), ["cmd", "--cmd", script, "--duration", "1"], token, tmp_path)
    assert doc["stopped"] == "completed" and doc["achieved"]["ended_by"] == "SIGTERM"
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 2
    assert left_behind(token, doc["achieved"]["process_group"]) == []
    for pid in started:  # gone, or dead and waiting for init
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0]
        except FileNotFoundError:
            continue
        assert state == "Z", pid
