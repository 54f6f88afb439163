"""Where the agent runs: this machine, or this machine under qemu-user
(docs/architecture.md, "From the command line to the agent and back").

A target is the command prefix that starts `portkit-target` there. The host
sends the agent one subcommand (an AgentCall), reads its versioned JSON and
never re-measures what the agent measured. Every run has a time limit: a hung
agent or emulator is stopped and reported (exit 3), never waited for forever.

Target specs: `local` (default), `qemu-ARCH` or `qemu-ARCH:CPU`
(e.g. `qemu-aarch64:cortex-a53`) for a cross-built agent under qemu-user, and
`ssh:[USER@]HOST[:PORT]` for a board: the agent already there (on its PATH,
or at --agent PATH on the board) runs through ssh, without a password prompt
(keys or an ssh-agent); PORTKIT_SSH replaces the `ssh` command (`ssh -F
my_config`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sysconfig
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from portkit.core.arches import Arch, find_arch, known_names
from portkit.core.errors import BadInput, EnvironmentProblem, Exit
from portkit.core.output import tell
from portkit.core.progress import StatusLine, duration

AGENT = "portkit-target"
AGENT_PREFIX = re.compile(r"^portkit-target(?: [a-z0-9-]+)*: ")  # how the agent starts its stderr lines
REMOTE_PID = "portkit-target pid "  # the first stderr line of an agent started through ssh
SSH_FAILED = 255  # ssh's own exit status: no connection, no login
NOT_FOUND = 127  # the shell's exit status for a command it cannot find
SHOW_AFTER_SECONDS = 2.0  # an agent run shorter than this shows no progress line
START_SECONDS = 30.0  # what any agent run may take beyond its own work: start-up, qemu, a slow board
EMULATED = "EMULATED by qemu-user: these timings mean nothing about a board"


@dataclass(frozen=True)
class AgentCall:
    """One run of an agent subcommand: `portkit-target ARGS --json [-- OPERANDS]`.

    `schema` is the "portkit.<kind>/<major>" this host understands; an agent
    speaking another major version is refused rather than misread.
    `timeout` is what this run may take, in seconds (None: no limit).
    `operands` (file names) follow `--`, so a name starting with '-' stays a name.
    `document_exits` are exit codes besides 0 and 1 after which the agent's
    stdout is still its complete document (crc32c exits 2 when some files
    were unreadable but reports every file); without a document they mean
    what they always do.
    """

    args: tuple[str, ...]
    schema: str
    timeout: float | None = START_SECONDS
    operands: tuple[str, ...] = ()
    document_exits: frozenset[int] = frozenset()

    @property
    def name(self) -> str:
        """The subcommand for messages: "vdso bench"."""
        words = []
        for arg in self.args:
            if arg.startswith("-"):
                break
            words.append(arg)
        return " ".join(words)

    def argv(self) -> list[str]:
        return [*self.args, "--json", *(("--", *self.operands) if self.operands else ())]


@dataclass(frozen=True)
class AgentResult:
    document: dict
    exit_code: int  # Exit.OK, Exit.FINDINGS when the agent's check failed, or one of the call's document_exits


@dataclass(frozen=True)
class Target:
    spec: str  # as the user wrote it, for messages
    command: tuple[str, ...]  # prefix that starts the agent
    agent: Path

    def start(self, argv: Sequence[str]) -> subprocess.Popen[str]:
        """Starts the agent with argv: the one place a target process is made.
        It gets a session of its own so that the agent and its emulator can be
        stopped together; it inherits this process's stdin, so an operand '-'
        reads what portkit was given, locally, under qemu-user and through ssh."""
        line = self.command_line(argv)
        try:
            return subprocess.Popen(
                line,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,
            )
        except OSError as err:
            raise EnvironmentProblem(f"cannot start the agent on {self.spec} ({line[0]}: {err.strerror})") from None

    def command_line(self, argv: Sequence[str]) -> list[str]:
        """What runs here to start the agent with argv."""
        return [*self.command, *argv]

    def run(self, call: AgentCall, status: StatusLine | None = None) -> AgentResult:
        """Runs the call to its end (or its time limit) and returns the agent's
        document; status shows how long it has run, when that is long enough to ask."""
        return self.launch(call).wait(status)

    def launch(self, call: AgentCall) -> Running:
        """Starts the call and returns at once: for long runs that report
        progress, and for runs side by side (a latency measurement and its load)."""
        return Running(self, call, self.start(call.argv()))

    def signal(self, running: Running, sig: signal.Signals) -> None:
        """Sends sig to the agent (and its emulator): their whole session."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(running.proc.pid, sig)

    def kill(self, running: Running) -> None:
        """Ends the agent at once and reaps what runs it here."""
        _stop(running.proc)

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        message = agent_message(_last_line(stderr))
        if returncode < 0:
            name = signal.Signals(-returncode).name
            raise EnvironmentProblem(f"the agent {self.agent} on {self.spec} was killed by {name}")
        # After one of document_exits with a document, its stderr lines say what went wrong.
        has_document = returncode in (Exit.OK, Exit.FINDINGS) or (
            returncode in call.document_exits and stdout.strip() != ""
        )
        if not has_document and returncode == Exit.USAGE:
            raise BadInput(message or f"the agent on {self.spec} rejected its arguments")
        if not has_document:
            raise EnvironmentProblem(message or f"the agent on {self.spec} failed (exit {returncode})")
        # Warnings and errors the agent chose to tell, in portkit's own words:
        # errors when its exit says some input failed, warnings otherwise.
        kind = "warning" if returncode in (Exit.OK, Exit.FINDINGS) else "error"
        for line in stderr.splitlines():
            if line.strip():
                tell(kind, agent_message(line))
        try:
            document = json.loads(stdout)
        except json.JSONDecodeError as err:
            raise EnvironmentProblem(
                f"the agent {self.agent} printed invalid JSON ({err.msg} at line {err.lineno})"
            ) from None
        _check_schema(document, call.schema, self.agent)
        return AgentResult(document, returncode)


class Running:
    """An agent command under way. Its stdout (the document) and stderr are
    read by two threads as they come, so neither pipe fills up; stderr lines
    that are JSON progress records (`{"progress": {...}}`) are kept apart as the
    latest progress, the rest are relayed when it ends."""

    def __init__(self, target: Target, call: AgentCall, proc: subprocess.Popen[str]) -> None:
        self.target, self.call, self.proc = target, call, proc
        self.started = time.monotonic()
        self.latest: dict | None = None
        self.remote_pid: int | None = None  # the agent's process on a board reached through ssh
        self._out: list[str] = []
        self._err: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(proc.stdout, self._out), daemon=True),
            threading.Thread(target=self._read_progress, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, pipe, into: list[str]) -> None:
        into.append(pipe.read())

    def _read_progress(self) -> None:
        for line in self.proc.stderr:
            if line.startswith(REMOTE_PID) and self.remote_pid is None:
                with contextlib.suppress(ValueError):
                    self.remote_pid = int(line.removeprefix(REMOTE_PID))
                    continue
            if line.startswith('{"progress"'):
                with contextlib.suppress(ValueError):
                    self.latest = json.loads(line)["progress"]
                    continue
            self._err.append(line)

    def finish(self) -> None:
        """Asks the agent to end now and write what it has (SIGTERM)."""
        self.target.signal(self, signal.SIGTERM)

    def wait(self, status: StatusLine | None = None) -> AgentResult:
        """Waits for the end, within the call's time limit from its start, and
        returns its document; a run longer than a moment shows on status
        (`vdso bench on qemu-aarch64: 12 s`)."""
        limit = self.call.timeout
        try:
            self._wait_until(None if limit is None else self.started + limit, status)
        except subprocess.TimeoutExpired:
            self.target.kill(self)
            raise EnvironmentProblem(
                f"`{self.call.name}` on {self.target.spec} did not finish within {limit:g} s and was stopped",
                hint="--timeout S allows longer, 0 no limit",
            ) from None
        except BaseException:  # Ctrl-C, or anything else: leave no agent behind
            self.target.kill(self)
            raise
        for reader in self._readers:
            reader.join()
        return self.target._result(self.proc.returncode, "".join(self._out), "".join(self._err), self.call)

    def _wait_until(self, deadline: float | None, status: StatusLine | None) -> None:
        while True:
            now = time.monotonic()
            left = None if deadline is None else max(0.0, deadline - now)
            step = SHOW_AFTER_SECONDS if status is None or not status.enabled else 0.25
            try:
                self.proc.wait(timeout=step if left is None else min(step, left))
                return
            except subprocess.TimeoutExpired:
                if left is not None and left <= step:
                    raise
            elapsed = time.monotonic() - self.started
            if status is not None and elapsed >= SHOW_AFTER_SECONDS:
                status.show(f"{self.call.name} on {self.target.spec}: {duration(elapsed)}")

    def stop(self) -> None:
        """Ends it at once, with nothing kept."""
        self.target.kill(self)


@dataclass(frozen=True)
class QemuTarget(Target):
    """A cross-built agent under qemu-user. qemu refuses a CPU it does not
    know before the agent starts, in its own words: that is a bad --target."""

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        refusal = next((line for line in stderr.splitlines() if "unable to find CPU model" in line), None)
        if refusal is not None and not stdout.strip():
            emulator = Path(self.command[0]).name
            raise BadInput(f"--target {self.spec}: {refusal}", hint=f"`{emulator} -cpu help` lists the CPUs it knows")
        return super()._result(returncode, stdout, stderr, call)


@dataclass(frozen=True)
class SshTarget(Target):
    """A board reached through ssh. The agent is started by the board's shell,
    which first says its process id on stderr, so that finish() and kill() can
    signal the agent itself: ending the local ssh would only close the channel
    and leave the agent running (no terminal, so no SIGHUP). Its command is
    the ssh command, its options and the host."""

    def command_line(self, argv: Sequence[str]) -> list[str]:
        words = " ".join(shlex.quote(word) for word in (str(self.agent), *argv))
        return [*self.command, f"echo '{REMOTE_PID}'$$ >&2; exec {words}"]

    def signal(self, running: Running, sig: signal.Signals) -> None:
        if running.remote_pid is None:  # not started yet on the board: ending ssh ends it
            super().signal(running, sig)
            return
        self._remote_kill(running.remote_pid, sig)

    def kill(self, running: Running) -> None:
        if running.remote_pid is not None:
            self._remote_kill(running.remote_pid, signal.SIGKILL)
        _stop(running.proc)

    def _remote_kill(self, pid: int, sig: signal.Signals) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            subprocess.run(
                [*self.command, f"kill -{sig.name.removeprefix('SIG')} {pid}"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=START_SECONDS,
                check=False,
            )

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        lines = [line for line in stderr.splitlines() if not line.startswith(REMOTE_PID)]
        stderr = "".join(line + "\n" for line in lines)
        if returncode == SSH_FAILED and not stdout.strip():
            raise EnvironmentProblem(
                f"--target {self.spec}: ssh failed: {_last_line(stderr) or 'no reason given'}",
                hint=f"`{shlex.join(self.command)} true` must work without a password (keys or ssh-agent); "
                "PORTKIT_SSH sets the ssh command",
            )
        if returncode == NOT_FOUND and not stdout.strip():
            raise EnvironmentProblem(
                f"--target {self.spec}: no agent at {self.agent} on the board ({_last_line(stderr)})",
                hint="copy build/<triple>/portkit-target to the board (scp), or pass --agent PATH_ON_THE_BOARD",
            )
        return super()._result(returncode, stdout, stderr, call)


def ssh_target(spec: str, agent: Path | None) -> SshTarget:
    """`ssh:[USER@]HOST[:PORT]`: the board, its agent on its PATH or at --agent."""
    address = spec.removeprefix("ssh:")
    host, port = address, ""
    if address.rpartition(":")[2].isdigit():
        host, _, port = address.rpartition(":")
    if not host or host.startswith("-") or any(c.isspace() for c in host):
        raise BadInput(f"--target {spec}: expected ssh:[USER@]HOST[:PORT]")
    try:
        ssh = shlex.split(os.environ.get("PORTKIT_SSH", "ssh"))
    except ValueError as err:
        raise BadInput(f"PORTKIT_SSH: {err}") from None
    if not ssh or shutil.which(ssh[0]) is None:
        raise EnvironmentProblem(
            f"--target {spec}: {ssh[0] if ssh else 'ssh'} is not installed", hint="apt-get install openssh-client"
        )
    # BatchMode: a password prompt would wait for ever with nobody to answer it.
    options = ["-o", "BatchMode=yes", *(["-p", port] if port else [])]
    return SshTarget(spec, (*ssh, *options, host), agent or Path(AGENT))


def run_agent(args: argparse.Namespace, call: AgentCall) -> AgentResult:
    """Runs the call on the target that --target/--agent name, within
    --timeout when it is given, and puts the target's spec in the document
    as "target" and whether it is emulated as "emulated": every agent
    command's way to the agent."""
    if args.timeout is not None:
        call = replace(call, timeout=args.timeout or None)
    target = parse_target(args.target, args.agent)
    with StatusLine(quiet=getattr(args, "quiet", False)) as status:
        result = target.run(call, status)
    result.document["target"] = target.spec
    result.document["emulated"] = emulated(target.spec)
    return result


def emulated(spec: str) -> bool:
    """Whether a --target spec runs the agent under qemu-user: its answers are
    the agent's, its timings are the emulator's and say nothing about hardware."""
    return spec.startswith("qemu-")


def _stop(proc: subprocess.Popen[str]) -> None:
    """Kills the agent's whole session (qemu and what it runs) and reaps it."""
    with contextlib.suppress(ProcessLookupError):  # it ended on its own meanwhile
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def agent_string(value: str) -> str:
    """A string of an agent document as the agent had it (a file name, say):
    its JSON writes each non-ASCII byte as one \\u00XX, so the bytes come back
    through Latin-1 and are decoded as this system decodes names."""
    try:
        return os.fsdecode(value.encode("latin-1"))
    except UnicodeEncodeError:  # not from the byte-escaping writer: already text
        return value


def agent_message(line: str) -> str:
    """An agent's stderr line without its `portkit-target CMD: ` prefix: the
    user ran portkit, and the agent is portkit's own part."""
    return AGENT_PREFIX.sub("", line, count=1)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _check_schema(document: object, expected: str, agent: Path) -> None:
    found = document.get("schema") if isinstance(document, dict) else None
    if found != expected:
        raise EnvironmentProblem(
            f"the agent {agent} answered with schema {found!r}, this portkit reads {expected!r}",
            hint="use the agent built from the same portkit version",
        )


def parse_target(spec: str, agent: Path | None = None) -> Target:
    """Turns a target spec (and an optional explicit agent path) into a Target."""
    if spec == "local":
        path = agent or local_agent()
        return Target(spec, (str(path),), path)
    if spec.startswith("qemu-"):
        arch_name, _, cpu = spec.removeprefix("qemu-").partition(":")
        arch = find_arch(arch_name)
        if arch is None:
            raise BadInput(f"--target {spec}: unknown architecture '{arch_name}' (known: {known_names()})")
        emulator = shutil.which(arch.qemu)
        if emulator is None:
            raise EnvironmentProblem(f"--target {spec}: {arch.qemu} is not installed", hint="apt-get install qemu-user")
        path = agent or cross_agent(arch)
        return QemuTarget(spec, (emulator, *(("-cpu", cpu) if cpu else ()), str(path)), path)
    if spec.startswith("ssh:"):
        return ssh_target(spec, agent)
    raise BadInput(f"--target {spec}: expected 'local', 'qemu-ARCH', 'qemu-ARCH:CPU' or 'ssh:[USER@]HOST[:PORT]'")


def local_agent() -> Path:
    """The agent installed next to this `portkit`, else the one on PATH."""
    beside = Path(sysconfig.get_path("scripts")) / AGENT
    if beside.is_file():
        return beside
    found = shutil.which(AGENT)
    if found:
        return Path(found)
    raise EnvironmentProblem(
        f"{AGENT} is not installed", hint="pip install . (it builds the agent), or pass --agent PATH"
    )


def cross_agent(arch: Arch) -> Path:
    """build/<triple>/portkit-target below $PORTKIT_AGENT_DIR or the current directory."""
    roots = [Path(os.environ["PORTKIT_AGENT_DIR"])] if "PORTKIT_AGENT_DIR" in os.environ else []
    roots.append(Path.cwd() / "build")
    for root in roots:
        path = root / arch.triple / AGENT
        if path.is_file():
            return path
    raise EnvironmentProblem(
        f"no {arch.name} agent at build/{arch.triple}/{AGENT}", hint="run `make cross`, or pass --agent PATH"
    )
