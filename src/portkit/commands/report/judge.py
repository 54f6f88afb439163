"""Verdicts: each area's from its sources, the report's from its areas, and
the exit status from the report's (docs/formats.md, "portkit.report/1").

An area is *not ready* when an item decides against it (a finding at or
above --fail-on, a cell over its limit); *not measured* when nothing was
given for it, or something given could not be measured or judged (an input
refused, a target out of reach, emulated timings); *ready* otherwise. The
report is not ready when an area is, not measured when an area with inputs
(or one --require names) is, and ready otherwise."""

from __future__ import annotations

from collections import Counter
from typing import Any

from portkit.commands.report import findings_area, latency, layouts, target_area
from portkit.commands.report.model import AREAS, NOT_MEASURED, NOT_READY, READY, VERDICT_WORDS, Area, Settings, Source
from portkit.core.errors import Exit
from portkit.core.output import count
from portkit.findings.model import Severity

SHOWN_IN_WHY = 3  # cells or names a one-line reason names before "and N more"


def judge_areas(sources: list[Source], settings: Settings) -> list[dict[str, Any]]:
    return [judge_area(area, [s for s in sources if s.area == area.key], settings) for area in AREAS]


def judge_area(area: Area, sources: list[Source], settings: Settings) -> dict[str, Any]:
    usable = [(i, s) for i, s in enumerate(sources) if s.document is not None]
    items: list[dict] = []
    extra: dict[str, list] = {}
    if area.key == "latency":
        if usable:
            judged = latency.judge(usable, settings)
            items += judged["items"]
            extra["cells"] = judged["cells"]
    else:
        for index, source in usable:
            judged = _judge_one(area.key, index, source)
            items += judged["items"]
            for name in ("records", "facts"):
                if name in judged:
                    extra.setdefault(name, []).extend(judged[name])
    for item in items:
        item.setdefault("decides", decides(item["severity"], settings.fail_on))
    verdicts = [_source_verdict(i, s, items, extra) for i, s in enumerate(sources)]
    # The same finding given twice (a scan's JSON and its SARIF) is one finding: its fingerprint is the same.
    unique: dict[str, dict] = {}
    for item in items:
        unique.setdefault(item["key"], item)
    items = list(unique.values())
    if any(v == NOT_READY for v in verdicts):
        verdict = NOT_READY
    elif not sources or NOT_MEASURED in verdicts:
        verdict = NOT_MEASURED
    else:
        verdict = READY
    return {
        "area": area.key,
        "title": area.title,
        "question": area.question,
        "verdict": verdict,
        "why": _why(area, verdict, sources, verdicts, items, extra, settings),
        "to_measure": area.to_measure,
        "sources": [
            {
                "label": s.label,
                "origin": s.origin,
                "kind": s.kind,
                "summary": _summary(area.key, s) if s.document is not None else None,
                "error": s.error,
                "verdict": v,
            }
            for s, v in zip(sources, verdicts, strict=True)
        ],
        "decisive": decisive(items),
        "counts": dict(Counter(item["severity"] for item in items)),
        "items": items,
        **extra,
    }


def _judge_one(area: str, index: int, source: Source) -> dict[str, Any]:
    if area == "layouts":
        return layouts.judge(index, source)
    if area == "target":
        return target_area.judge(index, source)
    return {"items": findings_area.items(index, source)}


def _summary(area: str, source: Source) -> str:
    if area == "latency":
        data: latency.Latency = source.document
        emulated = ", EMULATED" if data.emulated else ""
        return f"{data.title}: {count(len(data.cells), 'cell')}{emulated}"
    if area == "layouts":
        return layouts.summary(source)
    if area == "target":
        return target_area.summary(source)
    return findings_area.summary(source)


def decides(severity: str, fail_on: str) -> bool:
    """Whether a finding of this severity makes its area not ready under --fail-on."""
    return fail_on != "never" and Severity.from_label(severity) >= Severity.from_label(fail_on)


def _source_verdict(index: int, source: Source, items: list[dict], extra: dict) -> str:
    if source.document is None:
        return NOT_MEASURED
    if any(item["decides"] and item["source"] == index for item in items):
        return NOT_READY
    if source.area == "latency":
        cells = [c for c in extra.get("cells", []) if c["source"] == index]
        if not cells or any(c["verdict"] == NOT_MEASURED for c in cells):
            return NOT_MEASURED
    return READY


def decisive(items: list[dict]) -> list[dict[str, Any]]:
    """The deciding items grouped by what they are (a rule, a kind of
    problem), worst first, then the most frequent: what to act on."""
    groups: dict[str, dict] = {}
    for item in items:
        if not item["decides"]:
            continue
        group = groups.setdefault(
            item["group"],
            {
                "group": item["group"],
                "title": item["title"],
                "severity": item["severity"],
                "count": 0,
                "new": 0,
                "where": item["where"],
                "message": item["message"],
                "fix": item["fix"],
            },
        )
        group["count"] += 1
        group["new"] += item.get("change") == "new"
        if Severity.from_label(item["severity"]) > Severity.from_label(group["severity"]):
            group["severity"] = item["severity"]
    return sorted(groups.values(), key=lambda g: (-Severity.from_label(g["severity"]), -g["count"], g["group"]))


def _why(
    area: Area,
    verdict: str,
    sources: list[Source],
    verdicts: list[str],
    items: list[dict],
    extra: dict,
    settings: Settings,
) -> str:
    """The verdict's reason in one line."""
    deciding = [item for item in items if item["decides"]]
    if verdict == NOT_READY:
        return _not_ready(area.key, deciding, extra, settings)
    if not sources:
        return "nothing given"
    failed = [s for s, v in zip(sources, verdicts, strict=True) if v == NOT_MEASURED]
    if failed:
        source = failed[0]
        if source.error:
            return source.error
        if area.key == "latency":
            cells = [c for c in extra.get("cells", []) if c["verdict"] == NOT_MEASURED]
            return f"{source.label}: " + (cells[0]["why"] if cells else "no cells")
        return f"{source.label}: not measured"
    return _ready(area.key, items, extra, settings)


def _not_ready(area: str, deciding: list[dict], extra: dict, settings: Settings) -> str:
    if area == "latency":
        over = [c for c in extra.get("cells", []) if c["verdict"] == NOT_READY]
        named = ", ".join(f"{c['key']} ({c['why']})" for c in over[:SHOWN_IN_WHY])
        more = f" and {len(over) - SHOWN_IN_WHY} more" if len(over) > SHOWN_IN_WHY else ""
        return f"{len(over)} of {count(len(extra.get('cells', [])), 'cell')} over their limit: {named}{more}"
    if area == "layouts":
        changed = sum(1 for i in deciding if i["group"] == "layout-changed")
        failed = len(deciding) - changed
        words = [f"{count(changed, 'record')} change{'s' if changed == 1 else ''} between the ABIs"] if changed else []
        words += [f"{count(failed, 'input')} not laid out"] if failed else []
        return "; ".join(words) + f" (--fail-on {settings.fail_on})"
    if area == "target":
        titles = list(dict.fromkeys(f"{i['title']}: {i['message']}" for i in deciding))
        more = f"; and {len(titles) - SHOWN_IN_WHY} more" if len(titles) > SHOWN_IN_WHY else ""
        return "; ".join(titles[:SHOWN_IN_WHY]) + more
    findings = [i for i in deciding if i["group"] != "incomplete"]
    incomplete = len(deciding) - len(findings)
    by_severity = Counter(i["severity"] for i in findings)
    words = []
    if findings:
        kinds = ", ".join(count(by_severity[s], s) for s in ("error", "warning", "note") if by_severity[s])
        words.append(f"{count(len(findings), 'finding')} at or above --fail-on {settings.fail_on} ({kinds})")
    if incomplete:
        words.append(f"{count(incomplete, 'file')} not checked completely")
    return "; ".join(words)


def _ready(area: str, items: list[dict], extra: dict, settings: Settings) -> str:
    if area == "latency":
        cells = extra.get("cells", [])
        worst = max(cells, key=lambda c: c["max_ns"] or 0)
        return f"every cell within its limit ({count(len(cells), 'cell')}; worst {worst['key']}: {worst['why']})"
    if area == "layouts":
        records = extra.get("records", [])
        changed = sum(1 for r in records if r["changed"])
        if changed:
            return f"{count(changed, 'record')} change between the ABIs, below --fail-on {settings.fail_on}"
        return "no record changes between the ABIs"
    if area == "target":
        notes = len(items)
        return "nothing missing" + (f"; {count(notes, 'note')}" if notes else "")
    if items:
        return f"{count(len(items), 'finding')}, none at or above --fail-on {settings.fail_on}"
    return "no findings"


def overall(areas: list[dict], settings: Settings) -> tuple[str, str]:
    """The report's verdict and its one line."""
    by_verdict: dict[str, list[str]] = {NOT_READY: [], NOT_MEASURED: [], READY: []}
    titles = {a["area"]: a["title"] for a in areas}
    for area in areas:
        by_verdict[area["verdict"]].append(area["area"])
    given = {a["area"] for a in areas if a["sources"]}
    blocking = [a for a in by_verdict[NOT_MEASURED] if a in given or a in settings.require]
    if by_verdict[NOT_READY]:
        verdict = NOT_READY
    elif blocking or not by_verdict[READY]:
        verdict = NOT_MEASURED
    else:
        verdict = READY
    parts = [f"{VERDICT_WORDS[v]}: {', '.join(titles[n] for n in names)}" for v, names in by_verdict.items() if names]
    return verdict, "; ".join(parts)


def exit_status(verdict: str, areas: list[dict], sources: list[Source], refused: int, settings: Settings) -> Exit:
    """0 ready; 1 not ready, or not measured for want of an input, a limit or
    a board (emulated timings); 2 an input refused (the rest of the report
    stands); 3 not measured only because the environment could not measure
    what was given (an agent, an emulator, a target out of reach)."""
    if refused or any(s.bad_input or (s.error and not s.environment) for s in sources):
        return Exit.USAGE
    if verdict == READY:
        return Exit.OK
    if verdict == NOT_MEASURED and all(_environment_only(a, sources, settings) for a in areas):
        return Exit.ENVIRONMENT
    return Exit.FINDINGS


def _environment_only(area: dict, sources: list[Source], settings: Settings) -> bool:
    """This area keeps the report from being ready only because the environment failed, if at all."""
    if area["verdict"] != NOT_MEASURED:
        return True
    mine = [s for s in sources if s.area == area["area"]]
    if not mine:
        return area["area"] not in settings.require
    unmeasured = [s for s, entry in zip(mine, area["sources"], strict=True) if entry["verdict"] == NOT_MEASURED]
    return all(s.environment for s in unmeasured)
