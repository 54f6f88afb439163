"""Reading clang's diagnostics: the types a message names, where it points."""

from __future__ import annotations

import os
import re

from portkit.findings.model import Location

# 'size_t' (aka 'unsigned long'): a type as clang's messages name it.
QUOTED_TYPE = re.compile(r"'([^']+)'(?: \(aka '([^']+)'\))?")


def quoted_types(message: str) -> list[tuple[str, str | None]]:
    """Every type a message names, in order, with its aka (the canonical type) if given."""
    return [(m.group(1), m.group(2)) for m in QUOTED_TYPE.finditer(message)]


def diagnostic_span(diag):
    """The source range a diagnostic is about: the one that starts where it
    points, else the first that contains that point (clang points at the
    operator of `b - a` and gives the whole expression as a range)."""
    point = diag.location
    here = (point.line, point.column)
    ranges = list(diag.ranges)
    for candidate in ranges:
        if (candidate.start.line, candidate.start.column) == here:
            return candidate
    for candidate in ranges:
        if (candidate.start.line, candidate.start.column) <= here <= (candidate.end.line, candidate.end.column):
            return candidate
    return None


def diagnostic_location(diag) -> Location:
    """Where a diagnostic's expression is: its range, or the point it names."""
    point, span = diag.location, diagnostic_span(diag)
    if span is None:
        return Location(shown_path(point.file.name), point.line, point.column, point.line, point.column)
    start, end = span.start, span.end
    return Location(shown_path(point.file.name), start.line, start.column, end.line, end.column)


def shown_path(path: str) -> str:
    """A path as the user will recognise it: below the working directory as a
    relative one, others absolute; `src/../include/wire.h` as `include/wire.h`."""
    path = os.path.normpath(path)
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
