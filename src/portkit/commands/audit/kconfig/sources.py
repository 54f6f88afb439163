"""Where the config comes from: a file, this machine's running kernel
(/proc/config.gz, else /boot/config-RELEASE), or a target's running kernel
through the agent's `kconfig` command (which sends the file's bytes, still
compressed, as hex: the host does the unpacking and the parsing)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.commands.audit.kconfig.reader import KernelConfig, parse_config_bytes, read_config_file
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.target import AgentCall
from portkit.core.targets import run_agent

PROC_CONFIG = Path("/proc/config.gz")
AGENT_SCHEMA = "portkit.kconfig/1"
NO_CONFIG_HINT = (
    "a kernel built with CONFIG_IKCONFIG_PROC=y has /proc/config.gz (modprobe configs may load it); "
    "or pass the config file"
)


@dataclass(frozen=True)
class Loaded:
    config: KernelConfig
    source: str  # "file", "running" or "target"
    target: str | None  # the --target spec for "target"
    release: str | None  # uname -r of the kernel read, for "running" and "target"


def running_kernel_candidates(release: str) -> list[Path]:
    return [PROC_CONFIG, Path(f"/boot/config-{release}")]


def load(args: argparse.Namespace) -> Loaded:
    from_target = args.target != "local" or args.agent is not None or args.agent_arch is not None
    if args.config is not None:
        if from_target:
            raise BadInput("audit kconfig: a CONFIG file or --target/--agent, not both")
        return Loaded(read_config_file(args.config), "file", None, None)
    if from_target:
        return _from_target(args)
    release = os.uname().release
    return Loaded(read_running_config(running_kernel_candidates(release)), "running", None, release)


def read_running_config(candidates: Sequence[Path]) -> KernelConfig:
    """The first candidate that exists, read as any config file."""
    for path in candidates:
        if path.exists():
            return read_config_file(path)
    raise EnvironmentProblem(
        f"the running kernel's config is not readable: none of {', '.join(map(str, candidates))} exists",
        hint=NO_CONFIG_HINT,
    )


def _from_target(args: argparse.Namespace) -> Loaded:
    result = run_agent(args, AgentCall(("kconfig",), AGENT_SCHEMA))
    document = result.document
    path, data = document.get("path"), document.get("hex")
    if not isinstance(path, str) or not isinstance(data, str):
        raise EnvironmentProblem(f"the agent on {args.target} sent a {AGENT_SCHEMA} document without path or hex")
    try:
        raw = bytes.fromhex(data)
    except ValueError:
        raise EnvironmentProblem(f"the agent on {args.target} sent data that is not hex") from None
    where = f"{args.target}:{path}"
    release = document.get("release") if isinstance(document.get("release"), str) else None
    return Loaded(parse_config_bytes(raw, where), "target", args.target, release)
