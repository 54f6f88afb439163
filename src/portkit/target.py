"""Where the agent runs: this machine, or this machine under qemu-user.

A target is the command prefix that starts `portkit-target` there. The host
sends the agent a subcommand, reads its versioned JSON and never re-measures
what the agent measured.

Target specs: `local` (default), `qemu-ARCH` or `qemu-ARCH:CPU`
(e.g. `qemu-aarch64:cortex-a53`) for a cross-built agent under qemu-user.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.arches import Arch, find_arch, known_names
from portkit.errors import BadInput, EnvironmentProblem, Exit

AGENT = "portkit-target"


@dataclass(frozen=True)
class AgentResult:
    document: dict
    exit_code: int  # Exit.OK, Exit.FINDINGS when the agent's check failed, or one of run()'s document_exits


@dataclass(frozen=True)
class Target:
    spec: str  # as the user wrote it, for messages
    command: tuple[str, ...]  # prefix that starts the agent
    agent: Path

    def run(
        self,
        args: Sequence[str],
        schema: str,
        timeout: float | None = None,
        *,
        operands: Sequence[str] = (),
        document_exits: Collection[int] = (),
    ) -> AgentResult:
        """Runs `portkit-target ARGS --json [-- OPERANDS]` and returns its document.

        `schema` is the "portkit.<kind>/<major>" this host understands; an agent
        speaking another major version is refused rather than misread.
        `operands` (file names) follow `--`, so a name starting with '-' stays a name.
        `document_exits` are exit codes besides 0 and 1 after which the agent's
        stdout is still its complete document (crc32c exits 2 when some files
        were unreadable but reports every file); without a document they mean
        what they always do. The agent inherits this process's stdin, so an
        operand '-' reads what portkit was given, locally and under qemu-user.
        """
        argv = [*self.command, *args, "--json", *(("--", *operands) if operands else ())]
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, errors="replace")
        except OSError as err:
            raise EnvironmentProblem(f"cannot start the agent {self.agent}: {err.strerror}") from None
        except subprocess.TimeoutExpired:
            raise EnvironmentProblem(f"the agent on {self.spec} did not finish within {timeout:.0f} s") from None
        return self._result(proc, schema, document_exits)

    def _result(
        self, proc: subprocess.CompletedProcess[str], schema: str, document_exits: Collection[int]
    ) -> AgentResult:
        message = _last_line(proc.stderr)
        if proc.returncode < 0:
            name = signal.Signals(-proc.returncode).name
            raise EnvironmentProblem(f"the agent {self.agent} on {self.spec} was killed by {name}")
        # After one of document_exits with a document, its stderr lines say what went wrong.
        has_document = proc.returncode in (Exit.OK, Exit.FINDINGS) or (
            proc.returncode in document_exits and proc.stdout.strip() != ""
        )
        if not has_document and proc.returncode == Exit.USAGE:
            raise BadInput(message or f"the agent on {self.spec} rejected its arguments")
        if not has_document:
            raise EnvironmentProblem(message or f"the agent on {self.spec} failed (exit {proc.returncode})")
        if proc.stderr.strip():
            sys.stderr.write(proc.stderr)  # warnings and errors the agent chose to tell
        try:
            document = json.loads(proc.stdout)
        except json.JSONDecodeError as err:
            raise EnvironmentProblem(
                f"the agent {self.agent} printed invalid JSON ({err.msg} at line {err.lineno})"
            ) from None
        _check_schema(document, schema, self.agent)
        return AgentResult(document, proc.returncode)


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
        if arch is None or arch.qemu is None:
            raise BadInput(f"--target {spec}: unknown architecture '{arch_name}' (known: {known_names()})")
        emulator = shutil.which(arch.qemu)
        if emulator is None:
            raise EnvironmentProblem(f"--target {spec}: {arch.qemu} is not installed", hint="apt-get install qemu-user")
        path = agent or cross_agent(arch)
        return Target(spec, (emulator, *(("-cpu", cpu) if cpu else ()), str(path)), path)
    raise BadInput(f"--target {spec}: expected 'local', 'qemu-ARCH' or 'qemu-ARCH:CPU'")


def target_from_args(args: argparse.Namespace) -> Target:
    """The target named by the common --target/--agent options."""
    return parse_target(args.target, args.agent)


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
