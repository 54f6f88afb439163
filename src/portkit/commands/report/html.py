"""The report as one self-contained HTML page: no script, no request
(a Content-Security-Policy forbids both), plots inlined as SVG images,
the verdicts first and the details collapsed (<details>, which needs no
JavaScript), narrow screens and print in mind. Every string from the inputs
goes through escape.h/esc."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from portkit.commands.report.escape import Html, esc, h, join, void
from portkit.commands.report.model import VERDICT_WORDS
from portkit.commands.report.plots import Plot
from portkit.core.output import count

DECISIVE_SHOWN = 5  # groups of findings under "what decides it"; the rest are in the details
OPEN_CELLS = 12  # a latency table this long or shorter is shown open
POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

STYLE = """
:root { --ready: #1a7f37; --not_ready: #cf222e; --not_measured: #6e7781; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2328;
       margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.88em; }
code { overflow-wrap: anywhere; }
header.overall { color: #fff; padding: 1rem 1.25rem; margin: 1rem 0; border-radius: 8px; }
header.overall h1 { margin: 0; font-size: 2rem; letter-spacing: 0.02em; }
header.overall p { margin: 0.3rem 0 0; }
header.overall .meta { opacity: 0.85; font-size: 0.85rem; }
.ready { --c: var(--ready); } .not_ready { --c: var(--not_ready); } .not_measured { --c: var(--not_measured); }
header.overall, .badge { background: var(--c); print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.badge { color: #fff; border-radius: 4px; padding: 0.05rem 0.45rem; font-size: 0.75rem; font-weight: 700;
         white-space: nowrap; letter-spacing: 0.03em; vertical-align: middle; }
nav.areas { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0.6rem;
            margin-bottom: 1.5rem; }
nav.areas a { display: block; border: 1px solid var(--line); border-left: 6px solid var(--c); border-radius: 6px;
              padding: 0.5rem 0.7rem; color: inherit; text-decoration: none; break-inside: avoid; }
nav.areas a b { display: block; font-size: 1.05rem; margin-top: 0.2rem; }
nav.areas a span.why { font-size: 0.85rem; color: #59636e; overflow-wrap: anywhere; overflow: hidden;
                       display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 4; }
section.area { border-top: 4px solid var(--c); padding-top: 0.4rem; margin-top: 2rem; }
section.area h2 { margin: 0.2rem 0; font-size: 1.35rem; }
section.area .question { color: #59636e; font-size: 0.9rem; margin: 0; }
p.why { font-weight: 600; overflow-wrap: anywhere; }
ol.decisive { padding-left: 1.4rem; }
ol.decisive li { margin: 0 0 0.7rem; overflow-wrap: anywhere; }
.fix { display: block; color: #1f2328; background: var(--soft); border-left: 3px solid var(--c);
       padding: 0.2rem 0.5rem; margin-top: 0.2rem; }
.sev { font-weight: 700; font-size: 0.8rem; text-transform: uppercase; }
.sev.error { color: var(--not_ready); } .sev.warning { color: #9a6700; } .sev.note { color: #0969da; }
.change { border: 1px solid currentColor; border-radius: 4px; padding: 0 0.3rem; font-size: 0.75rem; font-weight: 700; }
.change.new, .change.worse, .change.changed { color: var(--not_ready); }
.change.better, .change.fixed { color: var(--ready); }
.change.same { color: var(--not_measured); }
details { margin: 0.5rem 0; } summary { cursor: pointer; font-weight: 600; }
details details { margin-left: 1rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.4rem 0; font-size: 0.88rem; }
th, td { border-bottom: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.msg { overflow-wrap: anywhere; min-width: 16rem; }
td.cell code { white-space: nowrap; }
figure { margin: 1rem 0; } figure img { width: 100%; max-width: 60rem; height: auto; border: 1px solid var(--line); }
figcaption { font-size: 0.8rem; color: #59636e; }
.measure { background: var(--soft); padding: 0.5rem 0.7rem; border-radius: 6px; overflow-wrap: anywhere; }
footer { margin-top: 2.5rem; font-size: 0.8rem; color: #59636e; }
@media (max-width: 40rem) {
  body { font-size: 14px; } header.overall h1 { font-size: 1.6rem; } td.msg { min-width: 12rem; }
}
@media print {
  body { max-width: none; font-size: 10pt; } a { color: inherit; }
  nav.areas { grid-template-columns: repeat(3, 1fr); }
  section.area { break-before: auto; } ol.decisive li, figure, tr { break-inside: avoid; }
  h2, h3, summary { break-after: avoid; }
}
@page { margin: 14mm; }
"""


def render(document: dict[str, Any], plots: Sequence[Plot] = (), plots_note: str | None = None) -> str:
    verdict = document["verdict"]
    title = f"portkit report: {VERDICT_WORDS[verdict]}"
    head = h(
        "head",
        void("meta", charset="utf-8"),
        void("meta", name="viewport", content="width=device-width, initial-scale=1"),
        void("meta", http_equiv="Content-Security-Policy", content=POLICY),
        void("meta", name="referrer", content="no-referrer"),
        h("title", title),
        h("style", Html(STYLE)),
    )
    body = h(
        "body",
        _overall(document),
        h("nav", [_card(area) for area in document["areas"]], class_="areas", aria_label="verdict per area"),
        h(
            "main",
            [_area(area, plots, plots_note) for area in document["areas"] if area["sources"]],
            _nothing_given([area for area in document["areas"] if not area["sources"]]),
        ),
        h(
            "footer",
            f"portkit {document.get('portkit')}, {document.get('created')}. ",
            "The same report as JSON: portkit report ... --format json (portkit.report/1); for CI: --format junit.",
        ),
    )
    return "<!DOCTYPE html>\n" + h("html", head, body, lang="en") + "\n"


def _badge(verdict: str) -> Html:
    return h("span", VERDICT_WORDS[verdict].upper(), class_=f"badge {verdict}")


def _overall(document: dict) -> Html:
    settings = document.get("settings") or {}
    baseline = document.get("baseline")
    meta = [f"--fail-on {settings.get('fail_on')}"]
    limits = settings.get("max_latency_us") or {}
    if limits:
        meta.append("--max-latency-us " + ",".join(f"{k}={v:g}" if k != "*" else f"{v:g}" for k, v in limits.items()))
    if baseline:
        meta.append(
            f"compared with {baseline['path']} ({baseline.get('created')}, "
            f"then {VERDICT_WORDS.get(baseline.get('verdict'), '?')})"
        )
    return h(
        "header",
        h("p", "Is this port ready?"),
        h("h1", VERDICT_WORDS[document["verdict"]].capitalize()),
        h("p", document["summary"]),
        h("p", f"portkit {document.get('portkit')} · {document.get('created')} · " + " · ".join(meta), class_="meta"),
        class_=f"overall {document['verdict']}",
    )


def _card(area: dict) -> Html:
    return h(
        "a",
        _badge(area["verdict"]),
        _was(area),
        h("b", area["title"]),
        h("span", area["why"], class_="why"),
        href=f"#{area['area'] if area['sources'] else 'not-given'}",
        class_=area["verdict"],
    )


def _was(area: dict) -> Html | None:
    was = area.get("was")
    if not was or was == area["verdict"]:
        return None
    return h("span", f" was {VERDICT_WORDS.get(was, was)}", class_="change")


def _area(area: dict, plots: Sequence[Plot], plots_note: str | None) -> Html:
    parts: list[object] = [
        h("h2", _badge(area["verdict"]), " ", area["title"], _was(area)),
        h("p", area["question"], class_="question"),
        h("p", area["why"], class_="why"),
    ]
    if area["verdict"] == "not_measured":
        parts.append(h("p", h("b", "To measure: "), _prose(area["to_measure"]), class_="measure"))
    if area["decisive"]:
        parts.append(_decisive(area["decisive"]))
    if area["area"] == "latency" and area.get("cells"):
        parts.append(_target_warnings([i for i in area["items"] if i["key"].startswith("sysinfo:")]))
        parts.append(_cells(area["cells"]))
        parts.append(_plots(plots, plots_note))
    if area["area"] == "layouts" and area.get("records"):
        parts.append(_records(area["records"], area.get("records_fixed") or []))
    if area.get("facts"):
        parts.append(_facts(area["facts"]))
    if area.get("fixed"):
        parts.append(_fixed(area["fixed"]))
    if area["items"]:
        parts.append(_items(area["items"], area["area"]))
    if area["sources"]:
        parts.append(_sources(area["sources"]))
    return h("section", parts, id=area["area"], class_=f"area {area['verdict']}")


def _nothing_given(areas: list[dict]) -> Html | None:
    """The areas nothing was given for, together: what to run for each."""
    if not areas:
        return None
    rows = [h("li", h("b", area["title"]), f" ({area['question']}): ", _prose(area["to_measure"])) for area in areas]
    return h(
        "section",
        h("h2", _badge("not_measured"), " Nothing given for ", ", ".join(a["title"] for a in areas)),
        h("ul", rows, class_="measure"),
        id="not-given",
        class_="area not_measured",
    )


def _prose(text: object) -> Html:
    """Text whose `backquoted` parts are code, as the commands write their fixes; escaped throughout."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backquote: no code at all
        return esc(text)
    return join(h("code", part) if index % 2 else part for index, part in enumerate(parts))


def _decisive(groups: list[dict]) -> Html:
    shown = []
    for group in groups[:DECISIVE_SHOWN]:
        times = Html(f" &times; {group['count']}") if group["count"] > 1 else ""
        new = h("span", f"{group['new']} new", class_="change new") if group.get("new") else None
        example = "first: " if group["count"] > 1 else ""
        shown.append(
            h(
                "li",
                h("span", group["severity"], class_=f"sev {group['severity']}"),
                " ",
                h("b", _group_name(group)),
                times,
                " ",
                new,
                void("br"),
                example,
                h("code", group["where"]),
                " ",
                group["message"],
                h("span", h("b", "Fix: "), _prose(group["fix"]), class_="fix") if group["fix"] else None,
            )
        )
    more = len(groups) - DECISIVE_SHOWN
    tail = h("p", f"and {count(more, 'more kind')} of problem, in the details below.") if more > 0 else None
    return join([h("h3", "What decides it, and what to do"), h("ol", shown, class_="decisive"), tail])


def _group_name(group: dict) -> str:
    rule_like = group["group"] != group["title"] and group["group"][:2] == "PK"
    return f"{group['group']} {group['title']}" if rule_like else group["title"]


def _items(items: list[dict], area: str) -> Html:
    groups: dict[str, list[dict]] = {}
    for item in items:
        groups.setdefault(item["group"], []).append(item)
    inner = []
    for name, members in groups.items():
        first = members[0]
        rows = [
            h(
                "tr",
                h("td", h("span", item["severity"], class_=f"sev {item['severity']}")),
                h("td", h("code", item["where"])),
                h("td", item["message"], " ", _change(item.get("change")), class_="msg"),
            )
            for item in members
        ]
        label = f"{name} {first['title']}" if name != first["title"] and name[:2] == "PK" else first["title"]
        inner.append(
            h(
                "details",
                h("summary", f"{label} ({len(members)})"),
                h("p", h("span", h("b", "Fix: "), _prose(first["fix"]), class_="fix")) if first["fix"] else None,
                h("div", h("table", h("tbody", rows)), class_="scroll"),
            )
        )
    noun = "finding" if area in ("code", "image", "kernel") else "item"
    return h("details", h("summary", f"Every {noun} ({len(items)}), by kind"), inner)


def _change(change: object) -> Html | None:
    if not change or change == "same":
        return None
    return h("span", str(change), class_=f"change {change}")


def _cells(cells: list[dict]) -> Html:
    compared = any(cell.get("change") for cell in cells)
    header = ["cell", "verdict", "limit us", "p99 us", "p99.9 us", "max us", "samples", "missed", "load achieved"]
    header += ["since the baseline"] if compared else []
    numeric = {2, 3, 4, 5, 6, 7}
    rows = []
    for cell in cells:
        marks = [] if cell["rt"] else ["no rt"]
        if cell["stopped"] not in ("completed", "unknown"):
            marks.append(cell["stopped"])
        if cell["emulated"]:
            marks.append("emulated")
        limit = "-" if cell["limit_us"] is None else f"{cell['limit_us']:g}"
        given = cell["limit_from"].startswith("--")
        rows.append(
            h(
                "tr",
                h("td", h("code", cell["key"]), f" ({', '.join(marks)})" if marks else None, class_="cell"),
                h(
                    "td",
                    _badge(cell["verdict"]),
                    h("small", " ", cell["why"]) if cell["verdict"] == "not_measured" else None,
                ),
                h(
                    "td",
                    limit,
                    h("small", " (interval)") if not given and cell["limit_us"] is not None else None,
                    class_="n",
                    title=cell["limit_from"],
                ),
                h("td", _us(cell["p99_ns"]), class_="n"),
                h("td", _us(cell["p999_ns"]), class_="n"),
                h("td", _us(cell["max_ns"]), class_="n"),
                h("td", str(cell["samples"]), class_="n"),
                h("td", "-" if cell["missed"] is None else str(cell["missed"]), class_="n"),
                h("td", cell["achieved"]),
                h("td", _cell_change(cell.get("change") or {})) if compared else None,
            )
        )
    head = h("tr", [h("th", name, class_="n" if i in numeric else None) for i, name in enumerate(header)])
    table = h("div", h("table", h("thead", head), h("tbody", rows)), class_="scroll")
    note = None
    if any(not c["limit_from"].startswith("--") and c["limit_us"] is not None for c in cells):
        note = h(
            "p",
            h(
                "small",
                "(interval): no --max-latency-us for the cell, so its limit is its own interval: "
                "a wake-up later than one period misses the next.",
            ),
        )
    verdicts = [c["verdict"] for c in cells]
    summary = (
        f"Every cell ({len(cells)}: "
        + ", ".join(f"{verdicts.count(v)} {VERDICT_WORDS[v]}" for v in dict.fromkeys(verdicts))
        + ")"
    )
    return h("details", h("summary", summary), table, note, open=len(cells) <= OPEN_CELLS)


def _cell_change(change: dict) -> list[object]:
    if not change:
        return []
    if change.get("change") == "new":
        return [_change("new")]
    parts: list[object] = []
    for name in ("p99", "max"):
        stat = change.get(name)
        if not stat:
            continue
        old, new = stat["old_ns"], stat["new_ns"]
        percent = f"{(new - old) / old * 100:+.0f}%" if old else ""
        parts += [
            h(
                "div",
                f"{name} {_us(old)} → {_us(new)} {percent} ",
                _change(stat["change"]),
                h("small", f" (noise ±{_us(stat['tolerance_ns'])})"),
            )
        ]
    return parts


def _plots(plots: Sequence[Plot], note: str | None) -> Html | None:
    if not plots:
        return None
    return join([[_figure(p) for p in plots], h("p", note) if note else None])


def _figure(plot: Plot) -> Html:
    data = base64.b64encode(plot.svg).decode("ascii")
    return h(
        "figure", void("img", src=f"data:image/svg+xml;base64,{data}", alt=plot.title), h("figcaption", plot.title)
    )


def _target_warnings(notes: list[dict]) -> Html | None:
    """What the target said about its latency when the study began (rt sysinfo): why the figures are what they are."""
    if not notes:
        return None
    rows = [h("li", h("code", _named(note)), " ", note["message"]) for note in notes]
    return h(
        "details", h("summary", f"The target's warnings when the study began ({len(notes)})"), h("ul", rows), open=True
    )


def _named(note: dict) -> str:
    """Where a note is, after its id when it has one (PKS1xx)."""
    return f"{note['group']} {note['where']}" if note["group"][:2] == "PK" else note["where"]


def _records(records: list[dict], fixed: list[str]) -> Html:
    abis = list(records[0]["sizes"]) if records else []
    head = h(
        "tr",
        h("th", "record"),
        h("th", "defined at"),
        [h("th", f"{abi} bytes", class_="n") for abi in abis],
        h("th", "why it changes"),
    )
    rows = [
        h(
            "tr",
            h("td", h("code", r["name"]), " ", _change(r.get("change"))),
            h("td", h("code", r["where"])),
            [h("td", "-" if r["sizes"][a] is None else str(r["sizes"][a]), class_="n") for a in abis],
            h("td", "; ".join(r["reasons"]) or ("incomplete" if r["incomplete"] else ""), class_="msg"),
        )
        for r in records
    ]
    gone = h("p", "No longer changing since the baseline: ", [h("code", name) for name in fixed]) if fixed else None
    return h(
        "details",
        h("summary", f"Records ({len(records)})"),
        h("div", h("table", h("thead", head), h("tbody", rows)), class_="scroll"),
        gone,
    )


def _facts(facts: list[list[str]]) -> Html:
    rows = [h("tr", h("th", name), h("td", value, class_="msg")) for name, value in facts]
    return h("details", h("summary", "What the target offers"), h("table", h("tbody", rows)), open=True)


def _fixed(fixed: list[dict]) -> Html:
    rows = [h("li", _change("fixed"), " ", h("code", f.get("where")), " ", f.get("message")) for f in fixed]
    return h("details", h("summary", f"Fixed since the baseline ({len(fixed)})"), h("ul", rows))


def _sources(sources: list[dict]) -> Html:
    rows = []
    for source in sources:
        origin = "ran" if source["origin"] == "run" else "read"
        text = source["error"] or source["summary"] or ""
        rows.append(
            h(
                "li",
                _badge(source["verdict"]),
                f" {origin} ",
                h("code", source["label"]),
                f" ({source['kind']})" if source.get("kind") else None,
                ": ",
                text,
            )
        )
    return h("details", h("summary", f"Sources ({len(sources)})"), h("ul", rows))


def _us(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1000:.1f}"
