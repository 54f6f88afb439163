"""How commands hand their results to the user: text or JSON, stdout or a
file written atomically (temp file + rename, so a reader never sees half)."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from portkit.core.errors import BadInput

if TYPE_CHECKING:  # rich is imported only when text is rendered: JSON output starts ~50 ms faster
    from rich.console import RenderableType
    from rich.table import Table
    from rich.text import Text

    Cell = str | Text
    Renderer = Callable[[dict], Iterable[RenderableType]]

TEXT_WIDTH = 100  # for files and pipes; a terminal uses its own width


def write_atomically(path: Path, text: str) -> None:
    # A device or FIFO (-o /dev/null, -o /dev/stdout) is written as it is:
    # renaming a temporary file over it would replace /dev/null itself.
    try:
        special = not stat.S_ISREG(path.stat().st_mode) and not stat.S_ISDIR(path.stat().st_mode)
    except OSError:
        special = False
    if special:
        try:
            with path.open("w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            raise BadInput(f"-o {path}: cannot write there ({err.strerror})") from None
        return
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as err:
        raise BadInput(f"-o {path}: cannot write there ({err.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def render_text(renderables: Iterable[RenderableType], colour: bool) -> str:
    """Renders rich renderables (markup strings, tables) to text."""
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=Console().width if colour else TEXT_WIDTH,
        force_terminal=colour,
        color_system="standard" if colour else None,
        highlight=False,
        # Text is literal: names like include/[abi].h must not be read as
        # style tags. Colour comes only from styled() pieces.
        markup=False,
        soft_wrap=False,
    )
    for item in renderables:
        if not colour and (isinstance(item, Text) or (isinstance(item, str) and _fits(item))):
            # what rich would print, without its per-line layout work (most of a long report's time)
            buffer.write((item.plain if isinstance(item, Text) else item) + "\n")
        else:
            console.print(item, soft_wrap=isinstance(item, Text))  # report lines never wrap
    # rich pads table cells to the full width; trailing blanks only hurt diffs.
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def _fits(line: str) -> bool:
    return len(line) <= TEXT_WIDTH and "\n" not in line


def emit(fmt: str, document: dict, render: Renderer, output: Path | None) -> None:
    """Writes the JSON document, or its text rendering by render(document), to -o FILE or stdout."""
    if fmt == "json":
        text = json.dumps(document, indent=2) + "\n"
    else:
        colour = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        text = render_text(render(document), colour)
    deliver(text, output)


def deliver(text: str, output: Path | None) -> None:
    """Finished text to stdout, or to -o FILE atomically."""
    if output is None:
        sys.stdout.write(text)
    else:
        write_atomically(output, text)


def styled(text: str, style: str) -> Text:
    """A piece of text in a style (colour on a terminal, plain elsewhere)."""
    from rich.text import Text

    return Text(text, style=style)


def fields(rows: Iterable[tuple[str, RenderableType]]) -> Table:
    """A two-column 'name  value' block, the header of most reports."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for name, value in rows:
        grid.add_row(name, value)
    return grid


def columns(header: list[str], rows: list[list[Cell]], right: Iterable[int] = ()) -> Text:
    """An aligned table as one Text: a bold header row, columns four spaces
    apart, the `right` columns right-justified. Much cheaper than rich's
    Table for reports with hundreds of rows, and never wraps a cell."""
    from rich.text import Text

    right = set(right)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    out = Text()
    for n, row in enumerate([header, *rows]):
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - len(str(cell)))
            piece = cell if isinstance(cell, Text) else Text(cell, style="bold" if n == 0 else "")
            out.append_text(Text(pad) + piece if i in right else piece + Text(pad))
            if i < len(row) - 1:
                out.append("    ")
        if n < len(rows):
            out.append("\n")
    return out


def words(items: Iterable[str]) -> str:
    """Space-separated names; rich wraps them at the console width."""
    return " ".join(items) or "-"
