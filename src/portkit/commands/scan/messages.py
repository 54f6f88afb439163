"""Reading clang's diagnostics: the types a message names, where it points."""

from __future__ import annotations

import re

from portkit.commands.scan.unit import shown_path
from portkit.findings.model import Location

# 'size_t' (aka 'unsigned long'): a type as clang's messages name it.
QUOTED_TYPE = re.compile(r"'([^']+)'(?: \(aka '([^']+)'\))?")


def quoted_types(message: str) -> list[tuple[str, str | None]]:
    """Every type a message names, in order, with its aka (the canonical type) if given."""
    return [(m.group(1), m.group(2)) for m in QUOTED_TYPE.finditer(message)]


def diagnostic_location(diag) -> Location:
    """Where a diagnostic points, to the end of the range that starts there."""
    start = diag.location
    end_line, end_column = start.line, start.column
    for source_range in diag.ranges:
        if source_range.start.line == start.line and source_range.start.column == start.column:
            end_line, end_column = source_range.end.line, source_range.end.column
    return Location(shown_path(start.file.name), start.line, start.column, end_line, end_column)
