"""Changing a source file: the one place scan's fixes go through. Edits are
replacements of byte ranges (as libclang's extents give them) applied
together to the bytes the parser read; overlapping ones are refused rather
than guessed at. An #include a fix needs is one more edit, after the file's
last top-level #include."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(\w+)")
OPENS = frozenset({b"if", b"ifdef", b"ifndef"})
GUARD_OPEN = re.compile(rb"^[ \t]*#[ \t]*(?:ifndef[ \t]+(\w+)|if[ \t]+!\s*defined\s*\(?\s*(\w+))")
GUARD_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)")


@dataclass(frozen=True, order=True)
class Edit:
    """Replace data[start:end] with text (start == end: insert)."""

    start: int
    end: int
    text: bytes


class Overlap(ValueError):
    """Two edits touch the same bytes."""


def apply(data: bytes, edits: Iterable[Edit]) -> bytes:
    """data with every edit made; the same edit twice counts once; Overlap
    when two different ones touch the same bytes, ValueError for a range
    outside data."""
    ordered = sorted(set(edits))
    out: list[bytes] = []
    at = 0
    for edit in ordered:
        if not 0 <= edit.start <= edit.end <= len(data):
            raise ValueError(f"an edit of bytes {edit.start}..{edit.end} outside {len(data)} bytes")
        if edit.start < at:
            raise Overlap(f"edits overlap at byte {edit.start}")
        out += [data[at : edit.start], edit.text]
        at = edit.end
    out.append(data[at:])
    return b"".join(out)


def include_edit(data: bytes, header: str) -> Edit:
    """`#include <header>` on a line of its own after the last #include
    outside any #if (a header guard's #ifndef counts as outside), else at
    the top, after a leading comment."""
    guard = _guard_depth(data)
    depth = 0
    after = -1  # the offset just past the last top-level #include line
    offset = 0
    for line in data.splitlines(keepends=True):
        directive = DIRECTIVE.match(line)
        if directive:
            word = directive[1]
            if word in OPENS:
                depth += 1
            elif word == b"endif":
                depth -= 1
            elif word == b"include" and depth <= guard:
                after = offset + len(line)
        offset += len(line)
    text = f"#include <{header}>\n".encode()
    if after >= 0:
        if not data[:after].endswith(b"\n"):
            text = b"\n" + text
        return Edit(after, after, text)
    return Edit(_after_leading_comment(data), _after_leading_comment(data), text)


def _guard_depth(data: bytes) -> int:
    """1 when the file opens with a header guard (#ifndef X then #define X), else 0."""
    directives = [line for line in data.splitlines() if DIRECTIVE.match(line)][:2]
    if len(directives) < 2:
        return 0
    first, second = GUARD_OPEN.match(directives[0]), GUARD_DEFINE.match(directives[1])
    return 1 if first and second and (first[1] or first[2]) == second[1] else 0


def _after_leading_comment(data: bytes) -> int:
    """The offset past a /* ... */ or // comment block and blank lines at the top."""
    at = 0
    while True:
        rest = data[at:]
        stripped = rest.lstrip(b" \t\r\n")
        skipped = len(rest) - len(stripped)
        if stripped.startswith(b"/*") and b"*/" in stripped:
            end = stripped.index(b"*/") + 2
            newline = stripped.find(b"\n", end)
            at += skipped + (newline + 1 if newline >= 0 else len(stripped))
        elif stripped.startswith(b"//"):
            newline = stripped.find(b"\n")
            at += skipped + (newline + 1 if newline >= 0 else len(stripped))
        else:
            return at
