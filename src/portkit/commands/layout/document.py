"""The `portkit.layout/1` document (docs/formats.md): every record that
differs between the ABIs (or every record, with --all), its layout for each
ABI and why it changes."""

from __future__ import annotations

from collections.abc import Sequence

from portkit.commands.layout.analyse import Analysis
from portkit.core.abis import Abi
from portkit.cparse.layout.compare import differs, reasons

SCHEMA = "portkit.layout/1"


def abi_json(a: Abi) -> dict:
    return {
        "name": a.name,
        "triple": a.triple,
        "clang_triple": a.clang_triple,
        "data_model": a.data_model,
        "byte_order": a.byte_order,
        "flags": list(a.flags),
    }


def build_document(abis: Sequence[Abi], analysis: Analysis, show_all: bool) -> dict:
    by_name = [{r.name: r for r in analysis.per_abi[a.name]} for a in abis]  # each name is once per ABI
    names = list(dict.fromkeys(name for index in by_name for name in index))  # in the order first seen
    abi_names = [a.name for a in abis]
    records = []
    for name in names:
        versions = [index.get(name) for index in by_name]
        incomplete = any(v is not None and v.size is None for v in versions)
        changed = not incomplete and differs(versions)
        if not changed and not incomplete and not show_all:
            continue
        first = next(v for v in versions if v is not None)
        records.append(
            {
                "name": name,
                "kind": first.kind,
                "file": first.file,
                "line": first.line,
                "changed": changed,
                "incomplete": incomplete,
                "reasons": reasons(versions, abi_names) if changed else [],
                "layouts": {
                    n: (v.to_json() if v is not None else None) for n, v in zip(abi_names, versions, strict=True)
                },
            }
        )
    return {
        "schema": SCHEMA,
        "abis": [abi_json(a) for a in abis],
        "records_total": len(names),
        "records_incomplete": sum(1 for r in records if r["incomplete"]),
        "records_changed": sum(1 for r in records if r["changed"]),
        "records": records,
        "problems": analysis.problems,
        "failed": analysis.failed,
    }
