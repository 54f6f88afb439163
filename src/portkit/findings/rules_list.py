"""`--list-rules` of every command that reports findings: the rules as
`portkit.rules/1` (JSON) or a table (text). A command with more to say of
each rule (audit kconfig's option and desired value) adds fields and its
own table."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

from portkit.core.errors import Exit
from portkit.core.output import emit
from portkit.findings.document import rule_json
from portkit.findings.model import Rule

SCHEMA = "portkit.rules/1"


def rule_fields(rule: Rule) -> dict[str, Any]:
    """The rule as the findings document lists it, and its fix."""
    return {**rule_json(rule), "fix": rule.fix}


def rules_table(document: dict) -> list:
    from portkit.core.output import columns

    rows = [[r["id"], r["severity"], r["name"], r["summary"]] for r in document["rules"]]
    return [columns(["rule", "severity", "name", "finds"], rows, wrap=3)]  # the summary folds on a terminal


def list_rules(
    args: argparse.Namespace,
    rules: Iterable[dict[str, Any]],
    render: Callable[[dict], list] = rules_table,
) -> int:
    """Writes the rules (each a rule_fields() dict, or more) in args.format to args.output."""
    document = {"schema": SCHEMA, "rules": list(rules)}
    emit("json" if args.format == "json" else "text", document, render, args.output)
    return Exit.OK
