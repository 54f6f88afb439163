"""The data-layouts area: the records of the headers given that change
between the ABIs (portkit layout). The headers a user names for the report
are those whose layout crosses a boundary (a file, the network, shared
memory, a 32-bit process, the kernel), so each change is a warning that
--fail-on weighs; one that stays inside a process is harmless, and
--fail-on error lets it pass."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from portkit.commands.report.model import Source, item
from portkit.core.errors import BadInput
from portkit.core.output import count

CHANGED_FIX = (
    "If it is written to a file, sent over the network, shared with another process or the kernel: give it "
    "fixed-width fields (int32_t, int64_t, uint32_t for addresses kept as numbers) and explicit padding, until "
    "`portkit layout` shows it unchanged; if it stays inside one process, nothing needs to change."
)
FAILED_FIX = "Give the header its flags (-p BUILD_DIR, or run `portkit layout` with -I and -D) so that it parses."
LAYOUT_FIELDS = ("name", "type", "offset", "size", "bit_offset", "bit_width")


def check(document: dict, label: str) -> None:
    records, abis = document.get("records"), document.get("abis")
    if not isinstance(records, list) or not isinstance(abis, list):
        raise BadInput(f"{label}: a portkit.layout/1 document without records[] (a --types table is no result)")
    if not all(isinstance(a, dict) and isinstance(a.get("name"), str) for a in abis):
        raise BadInput(f"{label}: abis[] without names")
    for index, record in enumerate(records):
        if not isinstance(record, dict) or not isinstance(record.get("name"), str):
            raise BadInput(f"{label}: records[{index}] has no name")
        if not isinstance(record.get("layouts"), dict):
            raise BadInput(f"{label}: records[{index}] has no layouts")


def judge(index: int, source: Source) -> dict[str, Any]:
    """The items (changed records, records not laid out, inputs that failed) and the table of records."""
    document = source.document
    abis = [a["name"] for a in document["abis"]]
    items, records = [], []
    for record in document["records"]:
        sizes = {abi: (record["layouts"].get(abi) or {}).get("size") for abi in abis}
        place = f"{record.get('file')}:{record.get('line')}"
        entry = {
            "key": f"layout:{record['name']}",
            "source": index,
            "name": record["name"],
            "where": place,
            "sizes": sizes,
            "reasons": [str(r) for r in record.get("reasons") or []],
            "changed": bool(record.get("changed")),
            "incomplete": bool(record.get("incomplete")),
            "digest": digest(record["layouts"], abis),
        }
        records.append(entry)
        if entry["changed"]:
            items.append(_changed(entry, abis, index))
        elif entry["incomplete"]:
            problems = [(record["layouts"].get(a) or {}).get("problem") for a in abis]
            items.append(
                item(
                    entry["key"],
                    index,
                    "note",
                    "layout-incomplete",
                    "layout not computed",
                    f"{record['name']} ({place})",
                    "; ".join(str(p) for p in problems if p) or "an unresolved type inside",
                    FAILED_FIX,
                )
            )
    for line in document.get("failed") or []:
        items.append(
            item(
                f"failed:{line}",
                index,
                "error",
                "not-laid-out",
                "input not laid out",
                str(line).partition(": ")[0],
                str(line),
                FAILED_FIX,
            )
        )
    return {"items": items, "records": records}


def _changed(entry: dict, abis: list[str], index: int) -> dict:
    sizes = " / ".join("?" if entry["sizes"][a] is None else str(entry["sizes"][a]) for a in abis)
    reasons = "; ".join(entry["reasons"])
    message = f"{sizes} bytes ({' / '.join(abis)})" + (f": {reasons}" if reasons else "")
    return item(
        entry["key"],
        index,
        "warning",
        "layout-changed",
        "layout changes between the ABIs",
        f"{entry['name']} ({entry['where']})",
        message,
        CHANGED_FIX,
    )


def digest(layouts: dict, abis: list[str]) -> str:
    """What makes a layout: size, alignment and every field's place, per ABI
    (not the file or line, which move with the code around it)."""
    shape = {}
    for abi in abis:
        layout = layouts.get(abi)
        if not isinstance(layout, dict):
            shape[abi] = None
            continue
        fields = [[f.get(k) for k in LAYOUT_FIELDS] for f in layout.get("fields") or [] if isinstance(f, dict)]
        shape[abi] = [layout.get("size"), layout.get("align"), fields]
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:16]


def summary(source: Source) -> str:
    document = source.document
    abis = " and ".join(a["name"] for a in document["abis"])
    changed = sum(1 for r in document["records"] if r.get("changed"))
    total = document.get("records_total", len(document["records"]))
    failed = document.get("failed") or []
    text = f"{changed} of {count(total, 'record')} change between {abis}"
    return text + (f"; {count(len(failed), 'input')} not laid out" if failed else "")
