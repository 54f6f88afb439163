"""The report as JUnit XML, which Jenkins, GitLab and LAVA show as tests: a
suite per area, a test case per verdict in it (each source, and each
latency cell), failing when not ready, skipped when not measured, with what
decides it and what to do in the failure's text. Valid against the JUnit
schema of Jenkins' xUnit plugin (tests)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from portkit.commands.report.escape import visible
from portkit.commands.report.model import NOT_MEASURED, NOT_READY, VERDICT_WORDS

DETAILS_SHOWN = 50  # items a failure's text lists; the HTML and JSON have them all


def render(document: dict[str, Any]) -> str:
    suites = ET.Element("testsuites", name="portkit report")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for area in document["areas"]:
        suite = ET.SubElement(suites, "testsuite", name=f"portkit report: {area['title']}")
        cases = _cases(area)
        for name, verdict, message, text in cases:
            case = ET.SubElement(
                suite, "testcase", classname=f"portkit.report.{area['area']}", name=_text(name), time="0"
            )
            if verdict == NOT_READY:
                ET.SubElement(case, "failure", type="not ready", message=_text(message)).text = _text(text)
            elif verdict == NOT_MEASURED:
                ET.SubElement(case, "skipped", message=_text(message)).text = _text(text)
        counts = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c[1] == NOT_READY),
            "errors": 0,
            "skipped": sum(1 for c in cases if c[1] == NOT_MEASURED),
        }
        for key, value in counts.items():
            suite.set(key, str(value))
            if key in totals:
                totals[key] += value
        suite.set("time", "0")
    suites.set("tests", str(totals["tests"]))
    suites.set("failures", str(totals["failures"]))
    suites.set("errors", "0")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _cases(area: dict) -> list[tuple[str, str, str, str]]:
    """(name, verdict, one-line message, text) per test case of the area."""
    if not area["sources"]:
        return [(f"{area['area']}: not measured", NOT_MEASURED, "nothing given", f"To measure: {area['to_measure']}")]
    cases = []
    for index, source in enumerate(area["sources"]):
        items = [i for i in area["items"] if i["source"] == index and i["decides"]]
        if source["error"]:
            message = source["error"]
        elif source["verdict"] == NOT_READY:
            message = f"{len(items)} at or above the threshold: " + "; ".join(dict.fromkeys(i["title"] for i in items))
        else:
            message = source["summary"] or VERDICT_WORDS[source["verdict"]]
        cases.append((f"{area['area']}: {source['label']}", source["verdict"], message, _listing(items, area)))
    for cell in area.get("cells", []):
        text = f"{cell['why']}\nlimit: {cell['limit_from']}\nachieved load: {cell['achieved']}"
        cases.append((f"latency: {cell['key']}", cell["verdict"], cell["why"], text))
    return cases


def _listing(items: list[dict], area: dict) -> str:
    lines = []
    for item in items[:DETAILS_SHOWN]:
        lines.append(f"{item['severity']} {item['group']} {item['where']}: {item['message']}")
        if item["fix"]:
            lines.append(f"  fix: {item['fix']}")
    if len(items) > DETAILS_SHOWN:
        lines.append(f"... and {len(items) - DETAILS_SHOWN} more (the HTML report and the JSON list them all)")
    if not lines and area["verdict"] == NOT_MEASURED:
        lines.append(f"To measure: {area['to_measure']}")
    return "\n".join(lines)


def _text(value: object) -> str:
    """Text XML 1.0 can hold: hidden characters (controls XML refuses among them) spelt out."""
    return visible(value)
