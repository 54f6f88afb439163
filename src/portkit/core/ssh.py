"""`--target ssh:[USER@]HOST[:PORT]` (`ssh:[::1]:2222` for an IPv6 literal):
a board reached through ssh, with nothing copied to it by hand.

A command opens one ssh connection (a ControlMaster in a private directory
here; every later ssh of the command goes through it), reads the board's
architecture (`uname -m`, and the ELF header of its /bin/sh, so that a
32-bit userland on a 64-bit kernel gets the 32-bit agent), copies that agent
into a private temporary directory on the board, runs it as often as the
command needs, and removes it at the end. `--agent PATH` runs the agent
already at PATH on the board instead (as given: `./portkit-target` stays
relative to the login directory), `--agent-arch` picks another
architecture's agent to copy.

ssh is the user's own (`~/.ssh/config`, its host keys checked as ssh checks
them) in BatchMode: a password or a host key to confirm would wait for ever
with nobody to answer, so they are one error line instead. PORTKIT_SSH
replaces the `ssh` command (`ssh -F my_config`).

The agent is started by the board's shell, which first says its process id
on stderr, so that finish() and kill() signal the agent itself: ending the
local ssh would only close the channel and leave the agent running (no
terminal, so no SIGHUP). A signal asked for before that line has arrived is
sent when it does."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from portkit.core.agents import AGENT, find_agent
from portkit.core.arches import Arch, arch_of_elf, describe_elf
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.output import warn
from portkit.core.progress import StatusLine
from portkit.core.target import START_SECONDS, AgentCall, AgentResult, Process, Running, Target, _stop

REMOTE_PID = "portkit-target pid "  # the first stderr line of an agent started through ssh
SSH_FAILED = 255  # ssh's own exit status: no connection, no login, a connection lost
NOT_FOUND = 127  # the shell's exit status for a command it cannot find
PID_WAIT_SECONDS = 5.0  # how long kill() waits for the board to name the agent's process
PERSIST_SECONDS = 60  # the connection outlives a portkit killed without its close() by this long
HEADER_BYTES = 64  # an ELF header, e_flags included
# The board's machine and its shell's ELF header in hex, with what a small board has (od, else busybox hexdump).
DETECT = (
    f"uname -m; od -An -tx1 -N{HEADER_BYTES} /bin/sh 2>/dev/null "
    f'|| hexdump -v -n {HEADER_BYTES} -e \'{HEADER_BYTES}/1 "%02x " "\\n"\' /bin/sh'
)
COPY = (
    'umask 077; d=$(mktemp -d "${TMPDIR:-/tmp}/portkit.XXXXXX" 2>/dev/null) '
    '|| { d="${TMPDIR:-/tmp}/portkit.$$" && mkdir "$d"; } || exit 1; '
    f'cat > "$d/{AGENT}" && chmod 700 "$d/{AGENT}" && echo "$d"'
)


@dataclass(frozen=True)
class Board:
    """What the board said of itself."""

    machine: str  # uname -m
    shell: str  # /bin/sh's ELF header, described
    arch: Arch | None  # the agent that runs beside its userland


@dataclass
class _Connection:
    """What an SshTarget opens on its first run and closes at the end."""

    control: tempfile.TemporaryDirectory | None = None
    board: Board | None = None
    remote_dir: str | None = None  # the board's temporary directory holding the copied agent
    remote_agent: str | None = None
    copied: Arch | None = None


@dataclass(frozen=True)
class SshTarget(Target):
    ssh: tuple[str, ...] = ()  # the ssh command, its options and -p PORT
    host: str = ""  # [USER@]HOST, as ssh takes it
    agent_given: str | None = None  # --agent: the agent's path on the board, as given
    agent_arch: Arch | None = None  # --agent-arch
    conn: _Connection = field(default_factory=_Connection, compare=False, repr=False)

    # -- the connection

    def _control_options(self) -> list[str]:
        if self.conn.control is None:
            return []
        path = Path(self.conn.control.name) / "connection"
        return ["-o", f"ControlPath={path}", "-o", "ControlMaster=no"]

    def _ssh(self, *remote: str) -> list[str]:
        return [*self.ssh, *self._control_options(), self.host, *remote]

    def _connect(self, status: StatusLine | None) -> None:
        """The command's one connection: a ControlMaster that later ssh runs share."""
        if status is not None:
            status.show(f"connecting to {self.spec}", now=True)
        self.conn.control = tempfile.TemporaryDirectory(prefix="portkit-ssh-")
        where = Path(self.conn.control.name)
        # -f: ssh goes to the background once logged in, so its stderr goes to
        # a file (a pipe would stay open as long as the connection lives).
        with open(where / "master.log", "w+") as log:
            argv = [
                *self.ssh,
                *("-o", f"ControlPath={where / 'connection'}", "-o", "ControlMaster=yes"),
                *("-o", f"ControlPersist={PERSIST_SECONDS}", "-f", "-N", self.host),
            ]
            try:
                proc = subprocess.run(
                    argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                    timeout=START_SECONDS, check=False,
                )  # fmt: skip
                code = proc.returncode
            except subprocess.TimeoutExpired:
                code = None
            log.seek(0)
            said = _last_line(log.read())
        if code != 0:
            self.conn.control.cleanup()
            self.conn.control = None
            reason = said or (f"no answer within {START_SECONDS:g} s" if code is None else "no reason given")
            raise EnvironmentProblem(f"--target {self.spec}: ssh failed: {reason}", hint=_ssh_hint(self, reason))

    def _quick(self, remote: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        """A short command on the board through the connection."""
        try:
            return subprocess.run(
                self._ssh(remote), input=stdin, capture_output=True, timeout=START_SECONDS * 4, check=False,
                **({} if stdin is not None else {"stdin": subprocess.DEVNULL}),
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise EnvironmentProblem(
                f"--target {self.spec}: the board did not answer within {START_SECONDS * 4:g} s"
            ) from None

    def _prepare(self, status: StatusLine | None) -> str:
        """The agent's path on the board: --agent's, or the board's agent copied there."""
        if self.conn.control is None:
            self._connect(status)
        if self.agent_given is not None:
            return self.agent_given
        if self.conn.remote_agent is not None:
            return self.conn.remote_agent
        board = self.conn.board = self._detect()
        arch = self.agent_arch or board.arch
        if arch is None:
            raise EnvironmentProblem(
                f"--target {self.spec}: the board runs {board.machine} with {board.shell} programs (its /bin/sh), "
                "for which portkit builds no agent",
                hint="pass --agent PATH_ON_THE_BOARD, an agent built for it; `portkit agents` lists portkit's",
            )
        local = find_agent(arch)
        if status is not None:
            status.show(f"copying the {arch.name} agent to {self.spec}", now=True)
        proc = self._quick(COPY, local.read_bytes())
        lines = proc.stdout.decode(errors="replace").split()
        if proc.returncode != 0 or not lines:
            raise EnvironmentProblem(
                f"--target {self.spec}: cannot copy the agent to the board: "
                f"{_last_line(proc.stderr.decode(errors='replace')) or f'exit {proc.returncode}'}",
                hint="the board needs a writable $TMPDIR or /tmp; or pass --agent PATH_ON_THE_BOARD",
            )
        self.conn.remote_dir, self.conn.copied = lines[-1], arch
        self.conn.remote_agent = f"{lines[-1]}/{AGENT}"
        return self.conn.remote_agent

    def _detect(self) -> Board:
        proc = self._quick(DETECT)
        text = proc.stdout.decode(errors="replace").split("\n", 1)
        machine = text[0].strip() or "?"
        try:
            header = bytes.fromhex("".join((text[1] if len(text) > 1 else "").split()))
        except ValueError:
            header = b""
        if not header:
            raise EnvironmentProblem(
                f"--target {self.spec}: cannot read the board's /bin/sh to tell its architecture "
                f"(uname -m says {machine}; neither od nor hexdump answered)",
                hint="pass --agent-arch ARCH, or --agent PATH_ON_THE_BOARD",
            )
        return Board(machine, describe_elf(header), arch_of_elf(header))

    def facts(self) -> dict:
        board, copied = self.conn.board, self.conn.copied
        if board is None:
            return {}
        return {"board": {"machine": board.machine, "userland": board.shell, "agent_copied": copied and copied.name}}

    def close(self) -> None:
        """Removes the copied agent from the board, then ends the connection."""
        if self.conn.control is None:
            return
        if self.conn.remote_dir is not None:
            proc = None
            with contextlib.suppress(EnvironmentProblem):
                proc = self._quick(f"rm -rf -- {shlex.quote(self.conn.remote_dir)}")
            if proc is None or proc.returncode != 0:
                warn(f"{self.spec}: the agent's copy in {self.conn.remote_dir} on the board could not be removed")
            self.conn.remote_dir = self.conn.remote_agent = None
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            subprocess.run(
                [*self.ssh, *self._control_options(), "-O", "exit", self.host],
                stdin=subprocess.DEVNULL, capture_output=True, timeout=START_SECONDS, check=False,
            )  # fmt: skip
        self.conn.control.cleanup()
        self.conn.control = None

    # -- the agent's runs

    def start(self, call: AgentCall, status: StatusLine | None = None) -> Process:
        remote = self._prepare(status)
        words = " ".join(shlex.quote(word) for word in (remote, *call.argv()))
        line = self._ssh(f"echo '{REMOTE_PID}'$$ >&2; exec {words}")
        try:
            return subprocess.Popen(
                line, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                start_new_session=True,
            )  # fmt: skip
        except OSError as err:
            raise EnvironmentProblem(f"cannot start {line[0]} for {self.spec}: {err.strerror}") from None

    def command_line(self, argv: Sequence[str]) -> list[str]:
        return self._ssh(*argv)

    def consume(self, running: Running, line: str) -> bool:
        if not line.startswith(REMOTE_PID) or running.remote_pid is not None:
            return False
        with contextlib.suppress(ValueError):
            running.remote_pid = int(line.removeprefix(REMOTE_PID))
        if running.remote_pid is not None and running.pending_signal is not None:
            self._remote_kill(running.remote_pid, running.pending_signal)
        return True

    def signal(self, running: Running, sig: signal.Signals) -> None:
        if running.remote_pid is None:  # the board has not named the agent yet: sent when it does
            running.pending_signal = sig
            return
        self._remote_kill(running.remote_pid, sig)

    def kill(self, running: Running) -> None:
        deadline = time.monotonic() + PID_WAIT_SECONDS
        while running.remote_pid is None and running.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if running.remote_pid is not None:
            self._remote_kill(running.remote_pid, signal.SIGKILL)
        assert isinstance(running.proc, subprocess.Popen)
        _stop(running.proc)

    def _remote_kill(self, pid: int, sig: signal.Signals) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            subprocess.run(
                self._ssh(f"kill -{sig.name.removeprefix('SIG')} {pid}"),
                stdin=subprocess.DEVNULL, capture_output=True, timeout=START_SECONDS, check=False,
            )  # fmt: skip

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        lines = [line for line in stderr.splitlines() if not line.startswith(REMOTE_PID)]
        stderr = "".join(line + "\n" for line in lines)
        if returncode == SSH_FAILED and not stdout.strip():
            reason = _last_line(stderr) or "no reason given"
            raise EnvironmentProblem(
                f"--target {self.spec}: the connection to the board was lost while `{call.name}` ran ({reason}); "
                "what it was measuring is lost, and the agent may go on there until its own end",
                hint=_ssh_hint(self, reason),
            )
        if returncode == NOT_FOUND and not stdout.strip():
            raise EnvironmentProblem(
                f"--target {self.spec}: no agent at {self.agent_given or self.conn.remote_agent} on the board "
                f"({_last_line(stderr)})",
                hint="without --agent, portkit copies the board's agent there itself",
            )
        return super()._result(returncode, stdout, stderr, call)


def _ssh_hint(target: SshTarget, reason: str) -> str:
    if "Host key verification failed" in reason:
        return f"ssh {target.host} once by hand to check and accept its host key"
    return (
        f"`{shlex.join([*target.ssh, target.host, 'true'])}` must work without a password (keys or ssh-agent); "
        "PORTKIT_SSH sets the ssh command"
    )


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def split_address(spec: str) -> tuple[str, str]:
    """`[USER@]HOST[:PORT]`, `[USER@][IPV6][:PORT]` or a bare IPv6 literal
    -> ([USER@]HOST as ssh takes it, PORT or "")."""
    bad = BadInput(f"--target {spec}: expected ssh:[USER@]HOST[:PORT] (ssh:[IPV6]:PORT for an IPv6 address)")
    user, at, rest = spec.removeprefix("ssh:").rpartition("@")
    port = ""
    if rest.startswith("["):
        host, closed, after = rest[1:].partition("]")
        if not closed or (after and not after.startswith(":")) or after == ":":
            raise bad
        port = after[1:]
    elif rest.count(":") == 1:
        host, _, port = rest.partition(":")
        if not port:
            raise bad
    else:
        host = rest  # a name, an IPv4 address, or an IPv6 literal without a port
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise bad
    words = [host, *([user] if at else [])]
    if any(not w or w.startswith("-") or any(c.isspace() or c in "[]@/'\"" for c in w) for w in words):
        raise bad
    return (f"{user}@{host}" if at else host), port


def ssh_target(spec: str, agent: str | None, agent_arch: Arch | None) -> SshTarget:
    """`ssh:[USER@]HOST[:PORT]`: the board, its agent copied there for the
    command, or at --agent PATH on it."""
    host, port = split_address(spec)
    if agent is not None and agent_arch is not None:
        raise BadInput("--agent PATH and --agent-arch ARCH: one names the agent, not both")
    try:
        ssh = shlex.split(os.environ.get("PORTKIT_SSH", "ssh"))
    except ValueError as err:
        raise BadInput(f"PORTKIT_SSH: {err}") from None
    if not ssh or shutil.which(ssh[0]) is None:
        raise EnvironmentProblem(
            f"--target {spec}: {ssh[0] if ssh else 'ssh'} is not installed", hint="apt-get install openssh-client"
        )
    # BatchMode: a password prompt would wait for ever with nobody to answer it.
    options = ("-o", "BatchMode=yes", *(("-p", port) if port else ()))
    return SshTarget(spec, (*ssh, *options, host), Path(agent or AGENT), (*ssh, *options), host, agent, agent_arch)
