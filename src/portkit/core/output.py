"""How commands hand their results to the user: text or JSON, stdout or a
file written atomically (temp file + rename, so a reader never sees half)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.fit import Columns, wrap_line

if TYPE_CHECKING:  # rich is imported only when text is rendered: JSON output starts ~50 ms faster
    from rich.console import Console, RenderableType
    from rich.table import Table
    from rich.text import Text

    from portkit.core.fit import Cell

    Renderer = Callable[[dict], Iterable[RenderableType]]

TEXT_WIDTH = 100  # what rich's grids wrap at in files and pipes; a terminal uses its own width


def write_atomically(path: Path, text: str | bytes, option: str = "-o") -> None:
    """Writes text (UTF-8) or bytes to path so that a reader sees the old file or the new one,
    never half. A new file gets the mode the umask allows (0666 & ~umask, as
    `>` in a shell), a replaced one keeps its mode. Anything in the way is one
    error line naming the option and the path."""
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise BadInput(f"{option} {path}: is a directory (give a file name)")
    # A device or FIFO (-o /dev/null, -o /dev/stdout) is written as it is:
    # renaming a temporary file over it would replace /dev/null itself.
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with path.open("wb") as f:
                f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        except OSError as err:
            raise BadInput(f"{option} {path}: cannot write there ({err.strerror})") from None
        return
    directory = path.parent if str(path.parent) else Path(".")
    _check_directory_of(directory, path, option)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as err:
        raise BadInput(f"{option} {path}: cannot write there ({err.strerror})") from None
    try:
        os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise BadInput(f"{option} {path}: cannot write there ({err.strerror})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_writable(path: Path, option: str = "-o") -> None:
    """What write_atomically would refuse, refused before a long run rather
    than after it, in its words: a directory for a file, a missing or
    unwritable directory (a temporary file is made there and removed)."""
    if path.is_dir():
        raise BadInput(f"{option} {path}: is a directory (give a file name)")
    if path.exists() and not path.is_file():
        return  # a device or a FIFO (-o /dev/null) is written as it is
    directory = path.parent if str(path.parent) else Path(".")
    _check_directory_of(directory, path, option)
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as err:
        raise BadInput(f"{option} {path}: cannot write there ({err.strerror})") from None
    os.close(fd)
    os.unlink(probe)


def _check_directory_of(directory: Path, path: Path, option: str) -> None:
    if directory.is_dir():
        return
    why = "does not exist" if not directory.exists() else "is not a directory"
    raise BadInput(f"{option} {path}: {directory} {why}")


def output_directory(path: Path, option: str = "-o") -> Path:
    """Makes sure the directory a command writes its files into exists
    (creating it and its parents), or says in one line why it cannot."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise BadInput(f"{option} {path}: is a file, not a directory") from None
    except OSError as err:
        raise BadInput(f"{option} {path}: cannot create the directory ({err.strerror})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise BadInput(f"{option} {path}: cannot write in the directory (permission denied)")
    return path


def current_umask() -> int:
    """This process's umask, read without changing it where the kernel tells
    it (/proc/self/status, Linux 4.7+); os.umask can only be read by setting it."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def render_text(renderables: Iterable[RenderableType], width: int | None = None, colour: bool = False) -> str:
    """Renders rich renderables (strings, Text, tables) to text: fitted to
    width on a terminal (long lines and tables' last columns folded at
    spaces), whole lines for a file or a pipe (width None)."""
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width or TEXT_WIDTH,
        force_terminal=colour,
        color_system="standard" if colour else None,
        highlight=False,
        # Text is literal: names like include/[abi].h must not be read as
        # style tags. Colour comes only from styled() pieces.
        markup=False,
        soft_wrap=False,
    )
    for item in renderables:
        if isinstance(item, Columns):
            item = item.text(width)
        if isinstance(item, str):
            item = Text(item)
        if not isinstance(item, Text):
            console.print(item)  # a rich grid wraps its own cells
        elif width is None or item.no_wrap:
            # what rich would print, without its per-line layout work (most of a long report's time)
            _write_text(buffer, console, item, colour)
        else:
            for line in item.split("\n"):
                for piece in wrap_line(line, width):
                    _write_text(buffer, console, piece, colour)
    # rich pads table cells to the full width; trailing blanks only hurt diffs.
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def _write_text(buffer: io.StringIO, console: Console, text: Text, colour: bool) -> None:
    if colour:
        console.print(text, soft_wrap=True)
    else:
        buffer.write(text.plain + "\n")


def emit(fmt: str, document: dict, render: Renderer, output: Path | None) -> None:
    """Writes the JSON document, or its text rendering by render(document), to -o FILE or stdout."""
    if fmt == "json":
        text = json.dumps(document, indent=2) + "\n"
    else:
        width = terminal_width() if output is None else None
        colour = width is not None and "NO_COLOR" not in os.environ
        text = render_text(render(document), width, colour)
    deliver(text, output)


def terminal_width() -> int | None:
    """The width of the terminal stdout is, or None for a file or a pipe."""
    if not sys.stdout.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size().columns


def deliver(text: str, output: Path | None) -> None:
    """Finished text to stdout, or to -o FILE atomically."""
    if output is None:
        try:
            sys.stdout.write(text)
        except BrokenPipeError:
            raise  # the reader went away (`| head`): the caller leaves quietly
        except OSError as err:  # `> /dev/full`, a full disk behind `> file`
            raise EnvironmentProblem(f"standard output could not be written: {err.strerror}") from None
    else:
        write_atomically(output, text)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`1 file`, `2 files`, `3 entries`: a number and its noun, in the singular for one."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def warn(message: str) -> None:
    """One `portkit: warning: ...` line on stderr: something the user should
    know that does not stop the command (the exit code says whether it failed)."""
    tell("warning", message)


def error(message: str) -> None:
    """One `portkit: error: ...` line on stderr for an input that failed while
    the command goes on with the others (an error that ends the command is
    raised as a PortkitError, and cli prints it the same way)."""
    tell("error", message)


def tell(kind: str, message: str) -> None:
    """`portkit: KIND: message` on stderr, folded to the terminal's width on a terminal.
    Control characters are written as escapes: a value the user gave (a file
    name with a newline or an escape sequence) can neither split the one line
    nor act on the terminal."""
    line = escaped(f"portkit: {kind}: {message}")
    if sys.stderr.isatty():
        from rich.text import Text

        width = shutil.get_terminal_size().columns
        with contextlib.suppress(OSError):
            width = os.get_terminal_size(sys.stderr.fileno()).columns
        if width > 0:
            line = "\n".join(piece.plain for piece in wrap_line(Text(line), width))
    print(line, file=sys.stderr)


def escaped(text: str) -> str:
    """text with each control or format character as its escape (`\\n`,
    `\\x1b`, `\\u202e`), everything printable kept."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def styled(text: str, style: str) -> Text:
    """A piece of text in a style (colour on a terminal, plain elsewhere)."""
    from rich.text import Text

    return Text(text, style=style)


def fields(rows: Iterable[tuple[str, RenderableType]]) -> Table:
    """A two-column 'name  value' block, the header of most reports."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")  # a long path breaks, never loses its end to "…"
    for name, value in rows:
        grid.add_row(name, value)
    return grid


def columns(header: list[str], rows: list[list[Cell]], right: Iterable[int] = (), wrap: int | None = None) -> Columns:
    """An aligned table (core.fit.Columns); on a narrow terminal the `wrap`
    column, a long reason or message, is folded under itself."""
    return Columns(header, rows, frozenset(right), wrap)


def words(items: Iterable[str]) -> str:
    """Space-separated names; rich wraps them at the console width."""
    return " ".join(items) or "-"
