"""Where the agent runs: this machine, or this machine under qemu-user
(docs/architecture.md, "From the command line to the agent and back").

A target is the command prefix that starts `portkit-target` there. The host
sends the agent one subcommand (an AgentCall), reads its versioned JSON and
never re-measures what the agent measured. Every run has a time limit: a hung
agent or emulator is stopped and reported (exit 3), never waited for forever.

Target specs: `local` (default), `qemu-ARCH` or `qemu-ARCH:CPU`
(e.g. `qemu-aarch64:cortex-a53`) for a cross-built agent under qemu-user.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from portkit.core.arches import Arch, find_arch, known_names
from portkit.core.errors import BadInput, EnvironmentProblem, Exit

AGENT = "portkit-target"
START_SECONDS = 30.0  # what any agent run may take beyond its own work: start-up, qemu, a slow board


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
        reads what portkit was given, locally and under qemu-user."""
        try:
            return subprocess.Popen(
                [*self.command, *argv],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,
            )
        except OSError as err:
            raise EnvironmentProblem(f"cannot start the agent {self.agent}: {err.strerror}") from None

    def run(self, call: AgentCall) -> AgentResult:
        """Runs the call to its end (or its time limit) and returns the agent's document."""
        return self.launch(call).wait()

    def launch(self, call: AgentCall) -> Running:
        """Starts the call and returns at once: for long runs that report
        progress, and for runs side by side (a latency measurement and its load)."""
        return Running(self, call, self.start(call.argv()))

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        message = _last_line(stderr)
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
        if stderr.strip():
            sys.stderr.write(stderr)  # warnings and errors the agent chose to tell
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
            if line.startswith('{"progress"'):
                with contextlib.suppress(ValueError):
                    self.latest = json.loads(line)["progress"]
                    continue
            self._err.append(line)

    def finish(self) -> None:
        """Asks the agent to end now and write what it has (SIGTERM to its session)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)

    def wait(self) -> AgentResult:
        """Waits for the end, within the call's time limit from its start, and returns its document."""
        limit = self.call.timeout
        try:
            self.proc.wait(timeout=None if limit is None else max(0.0, limit - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            _stop(self.proc)
            raise EnvironmentProblem(
                f"`{self.call.name}` on {self.target.spec} did not finish within {limit:g} s and was stopped",
                hint="--timeout S allows longer, 0 no limit",
            ) from None
        except BaseException:  # Ctrl-C, or anything else: leave no agent behind
            _stop(self.proc)
            raise
        for reader in self._readers:
            reader.join()
        return self.target._result(self.proc.returncode, "".join(self._out), "".join(self._err), self.call)

    def stop(self) -> None:
        """Ends it at once, with nothing kept (its session killed)."""
        _stop(self.proc)


def run_agent(args: argparse.Namespace, call: AgentCall) -> AgentResult:
    """Runs the call on the target that --target/--agent name, within
    --timeout when it is given, and puts the target's spec in the document
    as "target": every agent command's way to the agent."""
    if args.timeout is not None:
        call = replace(call, timeout=args.timeout or None)
    target = parse_target(args.target, args.agent)
    result = target.run(call)
    result.document["target"] = target.spec
    return result


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
        return Target(spec, (emulator, *(("-cpu", cpu) if cpu else ()), str(path)), path)
    raise BadInput(f"--target {spec}: expected 'local', 'qemu-ARCH' or 'qemu-ARCH:CPU'")


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
