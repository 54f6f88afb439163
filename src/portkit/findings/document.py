"""The JSON findings document: the command's schema and own fields, then
the same findings part for every command (docs/formats.md, "Findings")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from portkit.findings.model import Rule
from portkit.findings.triage import Triage

FINDINGS_FIELDS = ("findings", "counts", "suppressed", "baselined", "rules")


def findings_document(schema: str, extra: Mapping[str, Any], result: Triage) -> dict[str, Any]:
    clash = {"schema", *FINDINGS_FIELDS} & extra.keys()
    if clash:
        raise ValueError(f"the command's own fields may not be named {', '.join(sorted(clash))}")
    return {
        "schema": schema,
        **extra,
        "findings": [{**s.finding.to_json(), "fingerprint": s.fingerprint} for s in result.shown],
        "counts": result.counts(),
        "suppressed": result.suppressed,
        "baselined": result.baselined,
        "rules": [rule_json(r) for r in result.rules],
    }


def rule_json(rule: Rule) -> dict[str, str]:
    return {
        "id": rule.id,
        "name": rule.name,
        "severity": rule.severity.label,
        "family": rule.family,
        "summary": rule.summary,
    }
