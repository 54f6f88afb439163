"""Suppression comments: `/* portkit: ignore PK101 */` or `// portkit: ignore
PK101, PK301` on a finding's line or the line directly above hides it;
`portkit: ignore` without ids hides every rule there. A first word that
looks like a misspelt id (`PK-101`, `PK101PK102`) hides nothing, rather than
everything: the finding stays in sight.

The comment is found by its words, not by parsing C: the same words inside a
string literal also count. That is the price of working on any text (C, a
kernel config, a linker script) and a rare, visible one."""

from __future__ import annotations

import re
from collections.abc import Sequence

# All rules (a bare `portkit: ignore`).
EVERY_RULE: frozenset[str] = frozenset({"*"})

_MARKER = re.compile(r"portkit:\s*ignore\b", re.IGNORECASE)
# The ids right after the marker, separated by commas and/or blanks; any other
# word ends the list (so `portkit: ignore PK101 -- a reason` is PK101 alone).
_ID = re.compile(r"[\s,]*([A-Za-z]+[0-9]+)(?![\w-])")
_MISSPELT_ID = re.compile(r"[\s,]*[\w-]*[0-9]")


def suppressions_in(lines: Sequence[str]) -> dict[int, frozenset[str]]:
    """Line number (1-based) -> the rule ids its comments ignore (EVERY_RULE for all)."""
    found: dict[int, frozenset[str]] = {}
    for number, line in enumerate(lines, start=1):
        for marker in _MARKER.finditer(line):
            found[number] = found.get(number, frozenset()) | _ignored_after(line, marker.end())
    return found


def _ignored_after(line: str, start: int) -> frozenset[str]:
    ids = []
    position = start
    while match := _ID.match(line, position):
        ids.append(match.group(1).upper())
        position = match.end()
    if ids:
        return frozenset(ids)
    return frozenset() if _MISSPELT_ID.match(line, start) else EVERY_RULE


def is_suppressed(rule: str, line: int, suppressions: dict[int, frozenset[str]]) -> bool:
    """Whether a comment on `line` or the line above ignores `rule`."""
    for number in (line, line - 1):
        ignored = suppressions.get(number, frozenset())
        if rule in ignored or "*" in ignored:
            return True
    return False
