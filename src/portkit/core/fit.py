"""Text that fits a terminal: report lines and tables wrapped at word
boundaries to the terminal's width, and left whole everywhere else (a file
or a pipe gets full lines, for grep and diff)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

    Cell = str | Text  # a table cell: plain, or styled

GAP = "    "  # between table columns
MIN_WRAPPED = 24  # a wrapped column narrower than this reads worse than a long line


@dataclass(frozen=True)
class Columns:
    """An aligned table: a bold header row, columns four spaces apart, the
    `right` columns right-justified, and on a narrow terminal the `wrap`
    column (the last, a reason or message) folded under itself. Much cheaper
    than rich's Table for reports with hundreds of rows."""

    header: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    right: frozenset[int] = field(default_factory=frozenset)
    wrap: int | None = None

    def text(self, width: int | None) -> Text:
        """The table as one Text, fitted to width (None: no limit)."""
        from rich.text import Text

        table = [list(self.header), *(list(r) for r in self.rows)]
        widths = [max(len(str(r[i])) for r in table) for i in range(len(self.header))]
        wrap = _wrap_column(self.wrap, widths, width)
        if wrap is not None:
            widths[wrap] = max(MIN_WRAPPED, width - (sum(widths) - widths[wrap]) - len(GAP) * (len(widths) - 1))
        out = Text()
        for n, row in enumerate(table):
            cells = [c if isinstance(c, Text) else Text(c, style="bold" if n == 0 else "") for c in row]
            pieces = [_wrapped(cells[i], widths[i], 0) if i == wrap else [cells[i]] for i in range(len(cells))]
            for k in range(max(len(p) for p in pieces)):
                line = Text()
                for i, piece in enumerate(pieces):
                    cell = piece[k] if k < len(piece) else Text()
                    pad = " " * (widths[i] - len(cell.plain))
                    line.append_text(Text(pad) + cell if i in self.right else cell + Text(pad))
                    if i < len(pieces) - 1:
                        line.append(GAP)
                out.append_text(line.rstrip() or line)
                out.append("\n")
        out.rstrip()
        return out


def _wrap_column(wrap: int | None, widths: list[int], width: int | None) -> int | None:
    """The column to fold, when the table is wider than the terminal and folding leaves it readable."""
    if wrap is None or width is None:
        return None
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    if total <= width:
        return None
    room = width - (total - widths[wrap])
    return wrap if room >= MIN_WRAPPED else None


def wrap_line(line: Text, width: int) -> list[Text]:
    """A report line folded at spaces to width; its continuations indented two
    more than the line itself, so they read as part of it."""
    plain = line.plain
    indent = len(plain) - len(plain.lstrip(" ")) + 2
    return _wrapped(line, width, indent)


def _wrapped(line: Text, width: int, indent: int) -> list[Text]:
    """Folds line at spaces: the first piece up to width, the others up to
    width - indent after indent spaces. A word longer than the room stays whole."""
    from rich.text import Text

    plain = line.plain
    if len(plain) <= width or width - indent < MIN_WRAPPED // 2:
        return [line]
    pieces = list(line.divide(_cuts(plain, width, width - indent)))
    out = [pieces[0], *(Text(" " * indent) + piece for piece in pieces[1:])]
    for piece in out:
        piece.rstrip()  # the spaces a cut falls on
    return out


def _cuts(plain: str, first: int, rest: int) -> Iterable[int]:
    """Offsets to cut plain at: after the last space that keeps each piece within its room."""
    start, room = 0, first
    while len(plain) - start > room:
        window = plain[start : start + room + 1]
        cut = window.rfind(" ")
        if cut <= 0:  # one long word: cut after it
            next_space = plain.find(" ", start + room)
            if next_space < 0:
                return
            cut = next_space - start
        start += cut
        while start < len(plain) and plain[start] == " ":
            start += 1
        if start >= len(plain):
            return
        yield start
        room = rest
