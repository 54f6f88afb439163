"""--select and --ignore: rule ids, or prefixes naming a family of them
(scan's `PK1` is every PK1xx rule, audit rootfs's `PKR2` every PKR2xx rule,
`PK` every scan rule), as ruff reads them. The rules that run are those
selected (all by default) less those ignored."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from portkit.core.errors import BadInput
from portkit.findings.model import Rule

_SELECTOR = re.compile(r"[A-Za-z]+[0-9]*")
_FAMILY = re.compile(r"[A-Z]+[0-9]")  # an id's letters and first digit: PK101 -> PK1, PKR201 -> PKR2


def selectors(text: str) -> list[str]:
    """An argparse type: `PK101,PK3` -> ["PK101", "PK3"]."""
    items = [item.strip().upper() for item in text.split(",")]
    for item in items:
        if not _SELECTOR.fullmatch(item):
            raise argparse.ArgumentTypeError(
                f"'{item}' is not a rule id or prefix (letters, then digits: see --list-rules)"
            )
    return items


def check_selectors(option: str, given: Sequence[str] | None, rules: Sequence[Rule]) -> None:
    """Refuses, in one line, ids and prefixes that match no rule, naming the
    command's families."""
    unknown = [s for s in dict.fromkeys(given or ()) if not any(r.id.startswith(s) for r in rules)]
    if unknown:
        raise BadInput(
            f"{option}: no rule matches {' or '.join(unknown)}; the families are {', '.join(families(rules))} "
            "(--list-rules lists every rule)"
        )


def families(rules: Sequence[Rule]) -> list[str]:
    """The prefix of each family, in rule order: PK1, PK2, ... (scan), PKR1, ... (audit rootfs)."""
    found = (_FAMILY.match(rule.id) for rule in rules)
    return list(dict.fromkeys(match.group() for match in found if match))


def family_example(rules: Sequence[Rule]) -> str:
    """` (PK1: every PK1xx rule)` for --select's help, from the command's own first family."""
    prefix = next(iter(families(rules)), None)
    return f" ({prefix}: every {prefix}xx rule)" if prefix else ""


def active_rules(rules: Sequence[Rule], select: Sequence[str] | None, ignore: Sequence[str] | None) -> list[Rule]:
    def matches(rule: Rule, given: Sequence[str]) -> bool:
        return any(rule.id.startswith(s) for s in given)

    return [r for r in rules if (select is None or matches(r, select)) and not matches(r, ignore or ())]
