"""Which target a --target names, and an agent command's one way to its
agent (docs/architecture.md, "From the command line to the agent and back").

Apart from core.target, which the kinds of target (core.ssh, core.vm) build
on: this module knows every kind, and none of them knows it.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import replace
from pathlib import Path

from portkit.core.agents import find_agent, local_agent
from portkit.core.arches import Arch, find_arch, known_names
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.progress import StatusLine
from portkit.core.ssh import ssh_target
from portkit.core.target import AgentCall, AgentResult, QemuTarget, Target
from portkit.core.vm.target import vm_target


def run_agent(args: argparse.Namespace, call: AgentCall) -> AgentResult:
    """Runs the call on the target that --target/--agent name, within
    --timeout when it is given, and puts the target's spec in the document
    as "target" and whether it is emulated as "emulated": every agent
    command's way to the agent."""
    if args.timeout is not None:
        call = replace(call, timeout=args.timeout or None, limit_given=True)
    with (
        StatusLine(quiet=getattr(args, "quiet", False)) as status,
        parse_target(args.target, args.agent, getattr(args, "agent_arch", None)) as target,
    ):
        result = target.run(call, status)
    result.document["target"] = target.spec
    result.document["emulated"] = target.emulated
    result.document.update(target.facts())
    return result


def parse_target(spec: str, agent: str | Path | None = None, agent_arch: str | None = None) -> Target:
    """Turns a target spec, an optional agent file and an optional agent
    architecture into a Target."""
    wanted = _agent_arch(agent_arch)
    if agent is not None and wanted is not None:
        raise BadInput("--agent PATH and --agent-arch ARCH: one names the agent, not both")
    if spec == "local":
        path = Path(agent) if agent is not None else find_agent(wanted) if wanted else local_agent()
        return Target(spec, (str(path),), path)
    if spec.startswith("qemu-"):
        arch_name, _, cpu = spec.removeprefix("qemu-").partition(":")
        arch = find_arch(arch_name)
        if arch is None:
            raise BadInput(f"--target {spec}: unknown architecture '{arch_name}' (known: {known_names()})")
        if wanted is not None and wanted != arch:
            raise BadInput(
                f"--agent-arch {agent_arch} with --target {spec}: {arch.qemu} runs {arch.name} programs only "
                f"(--target qemu-{wanted.name} runs that agent)"
            )
        emulator = shutil.which(arch.qemu)
        if emulator is None:
            raise EnvironmentProblem(f"--target {spec}: {arch.qemu} is not installed", hint="apt-get install qemu-user")
        path = Path(agent) if agent is not None else find_agent(arch)
        return QemuTarget(spec, (emulator, *(("-cpu", cpu) if cpu else ()), str(path)), path)
    if spec.startswith("ssh:"):
        return ssh_target(spec, None if agent is None else str(agent), wanted)
    if spec.startswith("vm:"):
        return vm_target(spec, None if agent is None else Path(agent), wanted)
    raise BadInput(
        f"--target {spec}: expected 'local', 'qemu-ARCH', 'qemu-ARCH:CPU', 'ssh:[USER@]HOST[:PORT]', "
        "'vm:PACKAGE' or 'vm:PATH'"
    )


def _agent_arch(name: str | None) -> Arch | None:
    if name is None:
        return None
    arch = find_arch(name)
    if arch is None:
        raise BadInput(f"--agent-arch {name}: unknown architecture (known: {known_names()})")
    return arch
