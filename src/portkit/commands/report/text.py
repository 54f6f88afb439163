"""The report on a terminal: the verdicts, what decides each, what to run
for what was not measured, and where the other formats went."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from portkit.commands.report.escape import visible
from portkit.commands.report.model import VERDICT_WORDS
from portkit.core.output import columns, count, styled

if TYPE_CHECKING:
    from rich.console import RenderableType

STYLES = {"ready": "bold green", "not_ready": "bold red", "not_measured": "bold yellow"}
DECISIVE_SHOWN = 3


def render(document: dict[str, Any], written: list[tuple[str, str]] | None = None) -> list[RenderableType]:
    from rich.text import Text

    verdict = document["verdict"]
    out: list[RenderableType] = [
        Text.assemble("Is this port ready? ", styled(VERDICT_WORDS[verdict].upper(), STYLES[verdict])),
        visible(document["summary"]),
        "",
    ]
    rows = []
    for area in document["areas"]:
        was = area.get("was")
        mark = f" (was {VERDICT_WORDS.get(was, was)})" if was and was != area["verdict"] else ""
        rows.append(
            [area["area"], styled(VERDICT_WORDS[area["verdict"]] + mark, STYLES[area["verdict"]]), visible(area["why"])]
        )
    out += [columns(["area", "verdict", "why"], rows, wrap=2), ""]
    for area in document["areas"]:
        if not area["decisive"]:
            continue
        out.append(styled(f"{area['area']}: what decides it", "bold"))
        for group in area["decisive"][:DECISIVE_SHOWN]:
            times = f" ({group['count']})" if group["count"] > 1 else ""
            new = f" ({group['new']} new)" if group.get("new") else ""
            name = f"{group['group']} {group['title']}" if group["group"][:2] == "PK" else group["title"]
            out.append(visible(f"  {group['severity']} {name}{times}{new}: {group['where']} {group['message']}"))
            if group["fix"]:
                out.append(visible(f"    fix: {group['fix']}"))
        more = len(area["decisive"]) - DECISIVE_SHOWN
        if more > 0:
            out.append(f"  and {count(more, 'more kind')} of problem (--format html or markdown for the details)")
        out.append("")
    missing = [a for a in document["areas"] if not a["sources"]]
    for area in missing:
        out.append(visible(f"{area['area']} not measured: {area['to_measure']}"))
    if missing:
        out.append("")
    for path, what in written or []:
        out.append(visible(f"{what}: {path}"))
    while out and out[-1] == "":
        out.pop()
    return out
