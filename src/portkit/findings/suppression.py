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

# Searched in the lines joined by "\n": the blanks it allows stay within a line.
_MARKER = re.compile(r"portkit:[^\S\n]*ignore\b", re.IGNORECASE)
# The ids right after the marker, separated by commas and/or blanks; any other
# word ends the list (so `portkit: ignore PK101 -- a reason` is PK101 alone).
_ID = re.compile(r"[\s,]*([A-Za-z]+[0-9]+)(?![\w-])")
_MISSPELT_ID = re.compile(r"[\s,]*[\w-]*[0-9]")


def suppressions_in(lines: Sequence[str]) -> dict[int, frozenset[str]]:
    """Line number (1-based) -> the rule ids its comments ignore (EVERY_RULE for all)."""
    found: dict[int, frozenset[str]] = {}
    # one search of the whole text, not one per line: most files have no
    # marker, and sqlite3.c's 250,000 lines took a quarter of a second
    text = "\n".join(lines)
    number, line_start = 1, 0
    for marker in _MARKER.finditer(text):
        number += text.count("\n", line_start, marker.start())
        line_start = text.rfind("\n", 0, marker.start()) + 1
        line = lines[number - 1]
        found[number] = found.get(number, frozenset()) | _ignored_after(line, marker.end() - line_start)
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
