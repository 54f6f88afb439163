"""Where the agents are: one static `portkit-target` per architecture
(docs/architecture.md, "Agents").

`pip install .` builds the host's agent and, with each cross compiler it
finds, the agent of that architecture, into the package (portkit/agents/
<triple>/portkit-target); what it could not build is written down in
portkit/agents/manifest.json with the reason, so that an error names what was
missing. Looked up in this order, the first that has one wins:

1. `$PORTKIT_AGENT_DIR/<triple>/portkit-target`: agents built elsewhere (a
   clone's build/ after `make cross`, a CI artifact);
2. the agents installed with portkit;
3. when portkit runs from a clone (PYTHONPATH=src), that clone's build/
   (`make native cross`: build/host for this machine's architecture).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from portkit.core.arches import ARCHES, Arch, arch_of_uname
from portkit.core.errors import EnvironmentProblem

AGENT = "portkit-target"
AGENT_DIR_VARIABLE = "PORTKIT_AGENT_DIR"
MANIFEST = "manifest.json"  # written by the package's build: what it built and what it could not
PACKAGE = Path(__file__).resolve().parent.parent  # the portkit package directory


@dataclass(frozen=True)
class Place:
    """A directory holding agents as <triple>/portkit-target, and how it came to be searched."""

    root: Path
    origin: str  # for `portkit agents` and messages

    def agent(self, arch: Arch) -> Path | None:
        candidates = [self.root / arch.triple / AGENT]
        if self.origin == SOURCE_TREE and arch == host_arch():
            candidates.insert(0, self.root / "host" / AGENT)  # `make native` builds this machine's there
        return next((path for path in candidates if path.is_file()), None)


ENVIRONMENT = AGENT_DIR_VARIABLE
INSTALLED = "installed"  # with portkit, in the package
SOURCE_TREE = "clone"  # the build/ of the clone portkit runs from


def host_arch() -> Arch | None:
    """This machine's architecture, as portkit names it (None: one it has no agent for)."""
    return arch_of_uname(platform.machine())


def places() -> list[Place]:
    """Where agents are looked for, in order."""
    found = []
    if os.environ.get(AGENT_DIR_VARIABLE):
        found.append(Place(Path(os.environ[AGENT_DIR_VARIABLE]), ENVIRONMENT))
    found.append(Place(PACKAGE / "agents", INSTALLED))
    clone = PACKAGE.parent.parent
    if (clone / "CMakeLists.txt").is_file() and clone / "src" / "portkit" == PACKAGE:
        found.append(Place(clone / "build", SOURCE_TREE))
    return found


def find_agent(arch: Arch) -> Path:
    """The agent built for arch, or one line naming what is missing and how to get it."""
    for place in places():
        path = place.agent(arch)
        if path is not None:
            return path
    raise EnvironmentProblem(f"no {arch.name} agent: {missing_reason(arch)}", hint=missing_hint(arch))


def missing_reason(arch: Arch) -> str:
    """Why the installed portkit has no agent for arch, as its build wrote it down."""
    why = _manifest().get("missing", {}).get(arch.triple)
    if why:
        return f"this portkit was built without it ({why})"
    return f"none in {', '.join(str(p.root) for p in places())}"


def missing_hint(arch: Arch) -> str:
    return (
        f"install gcc-{arch.triple} and reinstall portkit (pip install .), set {AGENT_DIR_VARIABLE} to a "
        f"directory holding {arch.triple}/{AGENT} (a clone's build/ after `make cross`), or pass --agent PATH"
    )


def _manifest() -> dict:
    try:
        data = json.loads((PACKAGE / "agents" / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def local_agent() -> Path:
    """This machine's agent: the one installed next to this `portkit`, else
    the one on PATH, else the one found as for any architecture."""
    beside = Path(sysconfig.get_path("scripts")) / AGENT
    if beside.is_file():
        return beside
    found = shutil.which(AGENT)
    if found:
        return Path(found)
    arch = host_arch()
    if arch is None:
        raise EnvironmentProblem(
            f"{AGENT} is not installed, and portkit builds no agent for {platform.machine()}",
            hint="pass --agent PATH",
        )
    return find_agent(arch)


@dataclass(frozen=True)
class Listed:
    """One architecture's agents for `portkit agents`: each one found, or why there is none."""

    arch: Arch
    found: list[tuple[Path, str]]  # (path, origin), the first is the one portkit runs
    missing: str | None


def list_agents() -> list[Listed]:
    """Every architecture portkit supports, with the agents found for it in lookup order."""
    listed = []
    for arch in ARCHES:
        found = [(path, place.origin) for place in places() if (path := place.agent(arch)) is not None]
        listed.append(Listed(arch, found, None if found else missing_reason(arch)))
    return listed
