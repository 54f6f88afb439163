"""--select and --ignore: rule ids, or prefixes naming a family of them
(`PK1` is every PK1xx rule, `PK` every rule), as ruff reads them. The rules
that run are those selected (all by default) less those ignored."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from portkit.core.errors import BadInput
from portkit.findings.model import Rule

_SELECTOR = re.compile(r"[A-Za-z]+[0-9]*")


def selectors(text: str) -> list[str]:
    """An argparse type: `PK101,PK3` -> ["PK101", "PK3"]."""
    items = [item.strip().upper() for item in text.split(",")]
    for item in items:
        if not _SELECTOR.fullmatch(item):
            raise argparse.ArgumentTypeError(f"'{item}' is not a rule id or prefix (e.g. PK101 or PK1)")
    return items


def check_selectors(option: str, given: Sequence[str] | None, rules: Sequence[Rule]) -> None:
    """Refuses, in one line, ids and prefixes that match no rule."""
    unknown = [s for s in dict.fromkeys(given or ()) if not any(r.id.startswith(s) for r in rules)]
    if unknown:
        known = ", ".join(r.id for r in rules)
        raise BadInput(f"{option}: unknown rule {', '.join(unknown)} (the rules are {known})")


def active_rules(rules: Sequence[Rule], select: Sequence[str] | None, ignore: Sequence[str] | None) -> list[Rule]:
    def matches(rule: Rule, given: Sequence[str]) -> bool:
        return any(rule.id.startswith(s) for s in given)

    return [r for r in rules if (select is None or matches(r, select)) and not matches(r, ignore or ())]
