"""`--baseline OLD.json`: an earlier report (`portkit.report/1`), and what
changed since: findings new and fixed (by their fingerprints), records whose
layout changed, cells whose p99 or max got worse or better beyond the noise
(latency.compare_cell), and each area's verdict then."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portkit.commands.report.latency import compare_cell
from portkit.commands.report.model import NOT_MEASURED, SCHEMA
from portkit.core.documents import read_json_file
from portkit.core.errors import BadInput


@dataclass(frozen=True)
class Baseline:
    path: str
    document: dict[str, Any]

    def area(self, key: str) -> dict[str, Any] | None:
        for area in self.document["areas"]:
            if area.get("area") == key:
                return area
        return None


def read_baseline(text: str) -> Baseline:
    """An argparse type: an earlier report, or one line saying why it is not one."""
    where = f"--baseline {text}"
    document = read_json_file(text, where)
    schema = document.get("schema") if isinstance(document, dict) else None
    if schema != SCHEMA:
        what = f"a {schema} document" if isinstance(schema, str) else "not a portkit document"
        raise BadInput(f"{where}: {what}; give an earlier `portkit report --format json` ({SCHEMA})")
    areas = document.get("areas")
    if not isinstance(areas, list) or not all(
        isinstance(a, dict) and isinstance(a.get("items", []), list) for a in areas
    ):
        raise BadInput(f"{where}: a {SCHEMA} document without areas[] and their items")
    return Baseline(text, document)


def compare(areas: list[dict[str, Any]], baseline: Baseline, noise_percent: float) -> None:
    """Marks each area's items, records and cells with what changed since the baseline, in place."""
    for area in areas:
        old = baseline.area(area["area"])
        if old is None:
            continue
        area["was"] = old.get("verdict")
        if area["verdict"] == NOT_MEASURED or old.get("verdict") == NOT_MEASURED:
            continue  # nothing to compare with, on one side
        _items(area, old)
        if "records" in area:
            _records(area, old)
        if "cells" in area:
            _cells(area, old, noise_percent)


def _items(area: dict, old: dict) -> None:
    before = {i.get("key"): i for i in old.get("items", []) if isinstance(i, dict)}
    now = {i["key"] for i in area["items"]}
    for item in area["items"]:
        if item["key"] not in before:
            item["change"] = "new"
    area["fixed"] = [
        {k: item.get(k) for k in ("key", "severity", "group", "title", "where", "message")}
        for key, item in before.items()
        if key not in now and item.get("decides")
    ]
    new = {i["group"]: 0 for i in area["decisive"]}
    for item in area["items"]:
        if item["decides"] and item.get("change") == "new":
            new[item["group"]] += 1
    for group in area["decisive"]:
        group["new"] = new[group["group"]]


def _records(area: dict, old: dict) -> None:
    before = {r.get("key"): r for r in old.get("records", []) if isinstance(r, dict)}
    for record in area["records"]:
        earlier = before.get(record["key"])
        if earlier is None:
            record["change"] = "new" if record["changed"] else None
        elif earlier.get("digest") != record["digest"]:
            record["change"] = "changed"  # its layout is not what it was
    keys = {r["key"] for r in area["records"]}
    area["records_fixed"] = [r.get("name") for key, r in before.items() if key not in keys and r.get("changed")]
    by_key = {r["key"]: r for r in area["records"]}
    for item in area["items"]:
        record = by_key.get(item["key"])
        if record is not None and record.get("change") == "changed":
            item["change"] = "changed"


def _cells(area: dict, old: dict, noise_percent: float) -> None:
    before = {c.get("key"): c for c in old.get("cells", []) if isinstance(c, dict)}
    for cell in area["cells"]:
        earlier = before.get(cell["key"])
        if earlier is None:
            cell["change"] = {"change": "new"}
        elif not earlier.get("emulated") and not cell["emulated"]:
            cell["change"] = compare_cell(earlier, cell, noise_percent)
    for item in area["items"]:
        cell = next((c for c in area["cells"] if f"cell:{c['key']}" == item["key"]), None)
        if cell is not None and cell.get("change"):
            item["change"] = cell["change"]["change"]
