"""Where the agent runs (docs/architecture.md, "From the command line to the
agent and back").

A target starts `portkit-target` there. The host sends the agent one
subcommand (an AgentCall), reads its versioned JSON and never re-measures
what the agent measured. Every run has a time limit: a hung agent, emulator
or VM is stopped and reported (exit 3), never waited for forever.

Target specs: `local` (default); `qemu-ARCH` or `qemu-ARCH:CPU` (e.g.
`qemu-aarch64:cortex-a53`) for a cross-built agent under qemu-user;
`ssh:[USER@]HOST[:PORT]` for a board (core.ssh: the board's architecture is
detected and its agent copied there for the command); `vm:PACKAGE` or
`vm:PATH` for a real kernel booted under qemu-system (core.vm). The agents
come from core.agents; `--agent-arch` picks another architecture's (the
32-bit one on a 64-bit kernel), `--agent PATH` a file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Protocol

from portkit.core.documents import read_document
from portkit.core.errors import BadInput, EnvironmentProblem, Exit
from portkit.core.output import tell
from portkit.core.progress import StatusLine, duration

AGENT_PREFIX = re.compile(r"^portkit-target(?: [a-z0-9-]+)*: ")  # how the agent starts its stderr lines
SHOW_AFTER_SECONDS = 2.0  # an agent run shorter than this shows no progress line
START_SECONDS = 30.0  # what any agent run may take beyond its own work: start-up, qemu, a slow board
EMULATED = "EMULATED by qemu-user: these timings mean nothing about a board"
EMULATED_VM = (
    "EMULATED by qemu-system ({accelerator}): the kernel, its configuration and versions are real; "
    "these timings say nothing about hardware"
)


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
    # Files named in args that the agent reads (--check LIST and the files
    # it names) or writes (--dump FILE): a target with no files of its own
    # (vm:) is given the first and sends the second back.
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    limit_given: bool = False  # timeout is the user's --timeout, kept as given

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


class Process(Protocol):
    """What Running needs of a started agent: subprocess.Popen's own
    interface, which an agent in a VM (core.vm.session.GuestProcess) has too."""

    stdout: IO[str] | None
    stderr: IO[str] | None
    returncode: int | None

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


@dataclass(frozen=True)
class AgentResult:
    document: dict
    exit_code: int  # Exit.OK, Exit.FINDINGS when the agent's check failed, or one of the call's document_exits


@dataclass(frozen=True)
class Target:
    """A place the agent runs. A target that holds something open (an ssh
    connection, a VM) keeps it from its first run to close(); `with
    parse_target(...) as target:` closes it however the command ends."""

    spec: str  # as the user wrote it, for messages
    command: tuple[str, ...]  # prefix that starts the agent
    agent: Path

    @property
    def emulated(self) -> bool:
        return emulated(self.spec)

    def facts(self) -> dict:
        """What a document says about the target besides its spec (a VM's kernel)."""
        return {}

    def close(self) -> None:
        """Ends what the target holds open."""

    def __enter__(self) -> Target:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def start(self, call: AgentCall, status: StatusLine | None = None) -> Process:
        """Starts the agent for call: the one place a target process is made.
        It gets a session of its own so that the agent and its emulator can be
        stopped together; it inherits this process's stdin, so an operand '-'
        reads what portkit was given, locally, under qemu-user and through ssh."""
        line = self.command_line(call.argv())
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
        return self.launch(call, status).wait(status)

    def launch(self, call: AgentCall, status: StatusLine | None = None) -> Running:
        """Starts the call and returns at once: for long runs that report
        progress, and for runs side by side (a latency measurement and its load)."""
        return Running(self, call, self.start(call, status))

    def signal(self, running: Running, sig: signal.Signals) -> None:
        """Sends sig to the agent (and its emulator): their whole session."""
        assert isinstance(running.proc, subprocess.Popen)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(running.proc.pid, sig)

    def kill(self, running: Running) -> None:
        """Ends the agent at once and reaps what runs it here."""
        assert isinstance(running.proc, subprocess.Popen)
        _stop(running.proc)

    def consume(self, running: Running, line: str) -> bool:
        """Whether a stderr line of the agent's is the target's own business
        (ssh's line naming the agent's process on the board), not the agent's."""
        return False

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
        return AgentResult(read_document(stdout, call.schema, self.agent), returncode)


class Running:
    """An agent command under way. Its stdout (the document) and stderr are
    read by two threads as they come, so neither pipe fills up; stderr lines
    that are JSON progress records (`{"progress": {...}}`) are kept apart as the
    latest progress, the rest are relayed when it ends."""

    def __init__(self, target: Target, call: AgentCall, proc: Process) -> None:
        self.target, self.call, self.proc = target, call, proc
        self.started = time.monotonic()
        self.latest: dict | None = None
        self.remote_pid: int | None = None  # the agent's process on a board reached through ssh
        self.pending_signal: signal.Signals | None = None  # asked for before the board named the agent
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
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if self.target.consume(self, line):
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


def emulated(spec: str) -> bool:
    """Whether a --target spec runs the agent emulated: under qemu-user (this
    host's kernel, the emulator's timings) or in a VM (a real kernel; TCG's
    timings, or a virtual machine's under KVM). Either way the timings say
    nothing about hardware; what the agent reads is true of that kernel."""
    return spec.startswith(("qemu-", "vm:"))


def emulation_note(document: Mapping) -> str | None:
    """The line reports print above emulated timings, from a document's
    "target" (and a VM's "vm" record): None for a board or this machine."""
    spec = str(document.get("target") or "")
    if spec.startswith("qemu-"):
        return EMULATED
    if spec.startswith("vm:"):
        vm = document.get("vm") if isinstance(document.get("vm"), Mapping) else {}
        accelerator = "KVM" if vm.get("accelerator") == "kvm" else "TCG"  # type: ignore[union-attr]
        return EMULATED_VM.format(accelerator=accelerator)
    return None


def _stop(proc: subprocess.Popen[str]) -> None:
    """Kills the agent's whole session (qemu and what it runs) and reaps it."""
    with contextlib.suppress(ProcessLookupError):  # it ended on its own meanwhile
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def agent_message(line: str) -> str:
    """An agent's stderr line without its `portkit-target CMD: ` prefix: the
    user ran portkit, and the agent is portkit's own part."""
    return AGENT_PREFIX.sub("", line, count=1)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""
