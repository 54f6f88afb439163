"""`portkit agents`: the agent of each architecture portkit supports (the
static portkit-target that --target runs there), where it is and how large,
in the order portkit looks for them: $PORTKIT_AGENT_DIR (a directory holding
<triple>/portkit-target, such as a clone's build/ after `make cross`), the
agents installed with portkit, then a clone's build/ when portkit runs from
one. For an architecture without one it says why."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from portkit.core.agents import AGENT_DIR_VARIABLE, list_agents, local_agent, places
from portkit.core.command import add_command
from portkit.core.errors import EnvironmentProblem, Exit
from portkit.core.output import columns, emit, fields, styled

if TYPE_CHECKING:
    from rich.console import RenderableType

SCHEMA = "portkit.agents/1"
SUMMARY = "the agents portkit runs on its targets: where they are, how large"
EXAMPLES = "examples:\n  portkit agents\n  portkit agents --format json   paths and sizes for scripts"


def register(subparsers: argparse._SubParsersAction) -> None:
    add_command(subparsers, "agents", SUMMARY, __doc__, EXAMPLES, run, runs_on="host")


def run(args: argparse.Namespace) -> int:
    document = agents_document()
    emit(args.format, document, render, args.output)
    return Exit.OK


def agents_document() -> dict:
    rows = []
    for listed in list_agents():
        found = [{"path": str(path), "bytes": path.stat().st_size, "origin": origin} for path, origin in listed.found]
        rows.append(
            {
                "arch": listed.arch.name,
                "triple": listed.arch.triple,
                "debian": listed.arch.debian,
                "agent": found[0] if found else None,
                "also": found[1:],
                "missing": listed.missing,
            }
        )
    try:
        local: str | None = str(local_agent())
    except EnvironmentProblem:
        local = None
    return {
        "schema": SCHEMA,
        "agents": rows,
        "local": local,
        "search": [{"path": str(p.root), "origin": p.origin} for p in places()],
        "agent_dir_variable": {"name": AGENT_DIR_VARIABLE, "value": os.environ.get(AGENT_DIR_VARIABLE)},
    }


def render(document: dict) -> list[RenderableType]:
    """A row per architecture, each agent named under the directory it was
    found in; the directories, in the order they are searched, below."""
    roots = {place["origin"]: place["path"] for place in document["search"]}
    table = []
    for row in document["agents"]:
        agent = row["agent"]
        if agent is None:
            table.append([row["arch"], styled(f"none: {row['missing']}", "yellow"), "", ""])
            continue
        root = roots.get(agent["origin"], "")
        shown = agent["path"].removeprefix(root + "/") if root else agent["path"]
        table.append([row["arch"], shown, f"{agent['bytes'] / 1024:.0f} KiB", agent["origin"]])
    variable = document["agent_dir_variable"]
    places: list[tuple[str, RenderableType]] = [(origin, path) for origin, path in roots.items()]
    if not variable["value"]:
        places.insert(0, (variable["name"], "not set (a directory of <triple>/portkit-target, searched first)"))
    places.append(("local", document["local"] or styled("none (pip install . builds it)", "yellow")))
    return [columns(["arch", "agent", "size", "from"], table, right=[2], wrap=1), "", fields(places)]
