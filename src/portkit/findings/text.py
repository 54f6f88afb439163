"""Findings as text, compiler style: `path:line:col: severity [PKnnn] message`,
the source line with a caret under the columns, the fix; then one summary line.
On a terminal a source line wider than it is shown around the caret, as
clang does: the caret must stay under its column, so that line never folds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from portkit.core.output import count, styled
from portkit.findings.model import Finding, Incomplete, Severity
from portkit.findings.sources import SourceFile, SourceFiles
from portkit.findings.triage import Triage

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

TAB_WIDTH = 8  # compilers' and terminals' tab stops
CUT = "..."  # where a quoted line is cut to fit the terminal
MIN_QUOTE = 24  # on a terminal narrower than this after the gutter, lines are not cut
SEVERITY_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold magenta", Severity.NOTE: "bold cyan"}


def render_findings(
    result: Triage, sources: SourceFiles, width: int | None = None, incomplete: Sequence[Incomplete] | None = None
) -> list[RenderableType]:
    """Each finding, then the summary line. `width`: the terminal's (None: a
    file or a pipe, where lines stay whole)."""
    out: list[RenderableType] = []
    for shown in result.shown:
        out += [*_finding(shown.finding, sources.get(shown.finding.location.path), width), ""]
    out.append(summary(result, incomplete))
    return out


def _finding(finding: Finding, source: SourceFile | None, width: int | None) -> list[RenderableType]:
    from rich.text import Text

    where = finding.location
    position = ":".join(str(n) for n in (where.line, where.column) if n)
    head = Text.assemble(
        (f"{where.path}{':' if position else ''}{position}:", "bold"),
        " ",
        styled(finding.severity.label, SEVERITY_STYLES[finding.severity]),
        f" [{finding.rule}] {finding.message}",
    )
    line = source.line(where.line) if source else None
    quoted = _quote(line, finding, source, width) if line is not None and source else []
    return [head, *quoted, Text.assemble("  ", ("fix:", "bold"), f" {finding.fix}")]


def _quote(line: str, finding: Finding, source: SourceFile, width: int | None) -> list[Text]:
    """The source line and, when the finding has a column, a caret line
    under it: `^~~~` over the range when it ends on the same line."""
    from rich.cells import cell_len
    from rich.text import Text

    where = finding.location
    gutter = f"{where.line:>5} | "
    shown = _printable(line.expandtabs(TAB_WIDTH))
    indent, marks = 0, 0
    if where.column:
        start = source.char_index(line, where.column)
        # The width on screen of what precedes the column, tabs expanded
        # from the line's start, so the caret lines up under tabs and wide characters.
        indent = cell_len(_printable(line[:start].expandtabs(TAB_WIDTH)))
        marks = 1
        if where.end_line == where.line and where.end_column > where.column:
            end = source.char_index(line, where.end_column)
            marks = max(1, cell_len(_printable(line[:end].expandtabs(TAB_WIDTH))) - indent)
    room = width - len(gutter) if width is not None else None
    if room is not None and room >= MIN_QUOTE and cell_len(shown) > room:
        shown, indent, marks = _around(shown, indent, marks, room)
    # Source and caret lines are never folded: the caret must stay under its column.
    quoted = [Text(gutter + shown, no_wrap=True)]
    if where.column:
        caret = Text.assemble(
            " " * (len(gutter) - 2) + "| " + " " * indent, styled("^" + "~" * (marks - 1), "bold green")
        )
        caret.no_wrap = True
        quoted.append(caret)
    return quoted


def _around(shown: str, indent: int, marks: int, room: int) -> tuple[str, int, int]:
    """The part of a quoted line that fits `room` cells and shows the caret's
    cells (indent, marks wide), with CUT where it was cut: the line's start
    when the caret lies there, its end when it lies there, else the caret
    with as much before it as after. Returns the part and the caret's new
    indent and width (a range wider than the room is cut too)."""
    from rich.cells import cell_len

    total, cut = cell_len(shown), len(CUT)
    if indent + marks <= room - cut:
        left, right = 0, room - cut
    elif total - indent <= room - cut:
        left, right = total - (room - cut), total
    else:
        inner = room - 2 * cut
        left = max(0, indent - max(0, inner - marks) // 2)
        right = left + inner
    part, first = _cells(shown, left, right)
    head = CUT if left > 0 else ""
    indent = len(head) + indent - first
    marks = max(1, min(marks, len(head) + cell_len(part) - indent))  # not over the CUT at the end
    return head + part + (CUT if right < total else ""), indent, marks


def _cells(text: str, left: int, right: int) -> tuple[str, int]:
    """The characters of text that lie wholly within cells left..right, and
    the cell the first of them starts at (a wide character cut in two is left out)."""
    from rich.cells import get_character_cell_size

    kept: list[str] = []
    at, first = 0, None
    for char in text:
        size = get_character_cell_size(char)
        if at >= left and at + size <= right:
            first = at if first is None else first
            kept.append(char)
        at += size
    return "".join(kept), left if first is None else first


def _printable(text: str) -> str:
    """Control and format characters (escape sequences, bidi overrides) as
    `?`, one for one, so they neither act on the terminal nor move the caret."""
    return "".join(c if c.isprintable() else "?" for c in text)


def summary(result: Triage, incomplete: Sequence[Incomplete] | None = None) -> str:
    """`12 findings (2 errors, 9 warnings, 1 note) in 5 files; 3 suppressed, 4 in the baseline`,
    and `; 1 file not checked completely` when one was not."""
    shown = len(result.shown)
    if shown:
        per_severity = ", ".join(count(n, label) for label, n in result.counts().items() if n)
        files = len({s.finding.location.path for s in result.shown})
        head = f"{count(shown, 'finding')} ({per_severity}) in {count(files, 'file')}"
    else:
        head = "no findings"
    hidden = [f"{result.suppressed} suppressed"] * bool(result.suppressed)
    hidden += [f"{result.baselined} in the baseline"] * bool(result.baselined)
    parts = [head, ", ".join(hidden)] if hidden else [head]
    if incomplete:
        parts.append(f"{count(len(incomplete), 'file')} not checked completely")
    return "; ".join(parts)
