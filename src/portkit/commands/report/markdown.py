"""The report as a merge-request comment: the verdicts and what decides
them in full, then the details (collapsed, <details>) as far as they fit
under GitHub's comment limit (65,536 characters; GitLab's is 1,000,000),
with a note where they were cut. Every name from the inputs is a code span,
where nothing is markup (no HTML, link or mention); prose is escaped."""

from __future__ import annotations

from typing import Any

from portkit.commands.report.escape import md_code, md_prose, md_text
from portkit.commands.report.model import VERDICT_WORDS
from portkit.core.output import count

# GitHub counts a comment in UTF-16 units, as JavaScript does; kept well under its 65,536.
LIMIT = 60_000
MARK = {"ready": "✅", "not_ready": "❌", "not_measured": "⬜"}
DECISIVE_SHOWN = 5
NAME = 200  # characters of one name or message before it is cut
MESSAGE = 400


def size(text: str) -> int:
    """The length GitHub and GitLab count: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def render(document: dict[str, Any], limit: int = LIMIT) -> str:
    head = _head(document)
    details = [_details(area) for area in document["areas"]]
    out = head
    for index, (area, lines) in enumerate(zip(document["areas"], details, strict=True)):
        block = "\n".join(lines) + "\n"
        if size(out) + size(block) + size(_cut_note(0)) <= limit:
            out += block
            continue
        out += _fitted(area, lines, limit - size(out) - size(_cut_note(0)))
        out += _cut_note(len(document["areas"]) - index - 1)
        break
    return out


def _head(document: dict) -> str:
    verdict = document["verdict"]
    lines = [
        f"## {MARK[verdict]} Port readiness: **{VERDICT_WORDS[verdict]}**",
        "",
        md_text(document["summary"]),
        "",
        "| area | verdict | why |",
        "|---|---|---|",
    ]
    for area in document["areas"]:
        was = area.get("was")
        change = f" (was {VERDICT_WORDS.get(was, md_text(was))})" if was and was != area["verdict"] else ""
        lines.append(
            f"| {area['title']} | {MARK[area['verdict']]} {VERDICT_WORDS[area['verdict']]}{change} "
            f"| {md_code(area['why'], MESSAGE)} |"
        )
    lines.append("")
    for area in document["areas"]:
        if area["decisive"]:
            lines.append(f"**{area['title']}: what decides it**")
            lines.append("")
            for group in area["decisive"][:DECISIVE_SHOWN]:
                times = f" ({group['count']})" if group["count"] > 1 else ""
                new = f" ({group['new']} new)" if group.get("new") else ""
                lines.append(
                    f"- {group['severity']} {md_code(_group_name(group), NAME)}{times}{new}: "
                    f"{md_code(group['where'], NAME)} {md_code(group['message'], MESSAGE)}  "
                )
                if group["fix"]:
                    lines.append(f"  Fix: {md_prose(group['fix'], MESSAGE)}")
            more = len(area["decisive"]) - DECISIVE_SHOWN
            if more > 0:
                lines.append(f"- and {count(more, 'more kind')} of problem (the details below)")
            lines.append("")
    missing = [a for a in document["areas"] if not a["sources"]]
    if missing:
        lines.append(
            "**Not measured:** " + "; ".join(f"{a['title']}: {md_prose(a['to_measure'], MESSAGE)}" for a in missing)
        )
        lines.append("")
    settings = document.get("settings") or {}
    note = md_text(f"portkit {document.get('portkit')}, {document.get('created')}, --fail-on {settings.get('fail_on')}")
    if document.get("baseline"):
        note += f", compared with {md_code(document['baseline']['path'], NAME)}"
    lines += [note, ""]
    return "\n".join(lines) + "\n"


def _group_name(group: dict) -> str:
    if group["group"] != group["title"] and group["group"][:2] == "PK":
        return f"{group['group']} {group['title']}"
    return group["title"]


def _details(area: dict) -> list[str]:
    rows = _rows(area)
    if not rows:
        return []
    header, table = rows
    return [
        "<details>",
        f"<summary>{area['title']}: {len(table)} {'rows' if len(table) != 1 else 'row'}</summary>",
        "",
        *header,
        *table,
        "",
        "</details>",
        "",
    ]


def _rows(area: dict) -> tuple[list[str], list[str]] | None:
    if area["area"] == "latency" and area.get("cells"):
        header = ["| cell | verdict | limit us | p99 us | max us | change |", "|---|---|---:|---:|---:|---|"]
        table = [
            f"| {md_code(c['key'], NAME)} | {MARK[c['verdict']]} {md_code(c['why'], NAME)} | "
            f"{'-' if c['limit_us'] is None else format(c['limit_us'], 'g')} | {_us(c['p99_ns'])} "
            f"| {_us(c['max_ns'])} | "
            f"{_cell_change(c.get('change'))} |"
            for c in area["cells"]
        ]
        return header, table
    if area["items"]:
        header = ["| severity | kind | where | message | change |", "|---|---|---|---|---|"]
        table = [
            f"| {i['severity']} | {md_code(i['group'], NAME)} | {md_code(i['where'], NAME)} "
            f"| {md_code(i['message'], MESSAGE)} | "
            f"{i.get('change') or ''} |"
            for i in area["items"]
        ]
        return header, table
    return None


def _cell_change(change: dict | None) -> str:
    if not change:
        return ""
    if change.get("change") == "new":
        return "new"
    return ", ".join(f"{name} {change[name]['change']}" for name in ("p99", "max") if name in change)


def _fitted(area: dict, lines: list[str], room: int) -> str:
    """As many of the area's detail rows as fit in room, and a line saying how many did not."""
    if not lines:
        return ""
    opening, rows, closing = lines[:5], lines[5:-3], lines[-3:]
    taken: list[str] = []
    used = size("\n".join(opening + closing)) + 200
    for row in rows:
        if used + size(row) + 1 > room:
            break
        taken.append(row)
        used += size(row) + 1
    if not taken:
        return ""
    left = len(rows) - len(taken)
    note = (
        ["", f"… and {left} more rows: the comment limit; the HTML report and the JSON list them all"] if left else []
    )
    return "\n".join(opening + taken + note + closing) + "\n"


def _cut_note(areas_left: int) -> str:
    more = f" ({areas_left} more areas' details left out)" if areas_left else ""
    return (
        f"\n*The details were cut to fit a merge-request comment{more}: the HTML report and the JSON have them all.*\n"
    )


def _us(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1000:.1f}"
