"""The JSON findings document: the command's schema and own fields, then
the same findings part for every command (docs/formats.md, "Findings")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from portkit.findings.model import Incomplete, Rule
from portkit.findings.triage import Triage

FINDINGS_FIELDS = ("findings", "counts", "suppressed", "baselined", "incomplete", "rules")


def findings_document(
    schema: str, extra: Mapping[str, Any], result: Triage, incomplete: Sequence[Incomplete] | None = None
) -> dict[str, Any]:
    """`incomplete`: the inputs not checked completely, for a command that tracks them (None: no such field)."""
    clash = {"schema", *FINDINGS_FIELDS} & extra.keys()
    if clash:
        raise ValueError(f"the command's own fields may not be named {', '.join(sorted(clash))}")
    document = {
        "schema": schema,
        **extra,
        "findings": [{**s.finding.to_json(), "fingerprint": s.fingerprint} for s in result.shown],
        "counts": result.counts(),
        "suppressed": result.suppressed,
        "baselined": result.baselined,
    }
    if incomplete is not None:
        document["incomplete"] = [item.to_json() for item in incomplete]
    document["rules"] = [rule_json(r) for r in result.rules]
    return document


def rule_json(rule: Rule) -> dict[str, str]:
    return {
        "id": rule.id,
        "name": rule.name,
        "severity": rule.severity.label,
        "family": rule.family,
        "summary": rule.summary,
    }
