"""Findings as text, compiler style: `path:line:col: severity [PKnnn] message`,
the source line with a caret under the columns, the fix; then one summary line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from portkit.core.output import styled
from portkit.findings.model import Finding, Incomplete, Severity
from portkit.findings.sources import SourceFile, SourceFiles
from portkit.findings.triage import Triage

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

TAB_WIDTH = 8  # compilers' and terminals' tab stops
SEVERITY_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold magenta", Severity.NOTE: "bold cyan"}


def render_findings(
    result: Triage, sources: SourceFiles, incomplete: Sequence[Incomplete] | None = None
) -> list[RenderableType]:
    out: list[RenderableType] = []
    for shown in result.shown:
        out += [*_finding(shown.finding, sources.get(shown.finding.location.path)), ""]
    out.append(summary(result, incomplete))
    return out


def _finding(finding: Finding, source: SourceFile | None) -> list[RenderableType]:
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
    quoted = _quote(line, finding, source) if line is not None and source else []
    return [head, *quoted, Text.assemble("  ", ("fix:", "bold"), f" {finding.fix}")]


def _quote(line: str, finding: Finding, source: SourceFile) -> list[Text]:
    """The source line and, when the finding has a column, a caret line
    under it: `^~~~` over the range when it ends on the same line."""
    from rich.cells import cell_len
    from rich.text import Text

    where = finding.location
    gutter = f"{where.line:>5} | "
    # Source and caret lines are never folded: the caret must stay under its column.
    quoted = [Text(gutter + _printable(line.expandtabs(TAB_WIDTH)), no_wrap=True)]
    if where.column:
        start = source.char_index(line, where.column)
        # The width on screen of what precedes the column, tabs expanded
        # from the line's start, so the caret lines up under tabs and wide characters.
        indent = cell_len(_printable(line[:start].expandtabs(TAB_WIDTH)))
        width = 1
        if where.end_line == where.line and where.end_column > where.column:
            end = source.char_index(line, where.end_column)
            width = max(1, cell_len(_printable(line[:end].expandtabs(TAB_WIDTH))) - indent)
        marks = "^" + "~" * (width - 1)
        caret = Text.assemble(" " * (len(gutter) - 2) + "| " + " " * indent, styled(marks, "bold green"))
        caret.no_wrap = True
        quoted.append(caret)
    return quoted


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


def count(n: int, noun: str) -> str:
    """`1 file`, `2 files`: a number and its noun, in the singular for one."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
