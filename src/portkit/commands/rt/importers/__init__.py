"""Reading cyclictest and rtla results into `portkit.rt/1` documents
(docs/formats.md, "Imported results"): one module per format, the format
found from the content unless the caller names it.

    result = import_file(Path("run.log"))          # or forced_format="cyclictest-verbose"
    result.documents   # one document per run in the file
    result.problems    # one line each: what was cut short, left out or disagrees (also in
                       # every document's source.problems)

A file that cannot be read is one `BadInput` line naming the file and, where
there is one, the line: `run.log:1042: expected 'thread:cycle:latency', got '...'`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from portkit.commands.rt.importers import (
    cyclictest_histogram,
    cyclictest_json,
    cyclictest_summary,
    cyclictest_verbose,
    rtla_timerlat_hist,
)
from portkit.commands.rt.importers.detect import HEAD_BYTES, detect
from portkit.commands.rt.importers.model import ImportResult
from portkit.commands.rt.importers.text import Lines, bad, split_lines

__all__ = ["INPUT_FORMATS", "ImportResult", "import_file", "import_text"]

MAX_TEXT_BYTES = 256 * 1024 * 1024  # every format but the verbose log is read whole

LineReader = Callable[[Lines, str, list[str]], list[dict]]
LINE_READERS: dict[str, LineReader] = {
    "cyclictest-histogram": cyclictest_histogram.read,
    "cyclictest-verbose": cyclictest_verbose.read,
    "cyclictest-summary": cyclictest_summary.read,
    "rtla-timerlat-hist": rtla_timerlat_hist.read,
}
JSON_FORMAT = "cyclictest-json"
INPUT_FORMATS: tuple[str, ...] = (*LINE_READERS, JSON_FORMAT)  # each is "<source.tool>-<source.format>"


def import_text(text: str, name: str, forced_format: str | None = None) -> ImportResult:
    """A file's content, `name` standing for the file in messages and documents."""
    fmt = _checked(forced_format, name) or detect(text, name)
    return _read(fmt, name, text, split_lines(text))


def import_file(path: Path, forced_format: str | None = None) -> ImportResult:
    """The documents one file holds; a verbose log is read as a stream."""
    name = str(path)
    fmt = _checked(forced_format, name)
    try:
        with path.open("rb") as file:
            head = file.read(HEAD_BYTES)
            if fmt is None:
                fmt = detect(head.decode("utf-8", "backslashreplace"), name, whole=len(head) < HEAD_BYTES)
            if fmt == "cyclictest-verbose":
                file.seek(0)
                return _read(fmt, name, "", file)
            size = path.stat().st_size
            if size > MAX_TEXT_BYTES:
                raise bad(name, None, f"{size} bytes, too large for a {fmt} file (limit {MAX_TEXT_BYTES})")
            data = head + file.read()
    except IsADirectoryError:
        raise bad(name, None, "is a directory") from None
    except OSError as err:
        raise bad(name, None, err.strerror or str(err)) from None
    text = data.decode("utf-8", "backslashreplace")
    if forced_format is None and len(head) == HEAD_BYTES:
        fmt = detect(text, name)  # the head alone may have shown only a live screen's summary lines
    return _read(fmt, name, text, split_lines(text))


def _checked(forced_format: str | None, name: str) -> str | None:
    if forced_format is not None and forced_format not in INPUT_FORMATS:
        raise bad(name, None, f"unknown input format {forced_format!r} (one of {', '.join(INPUT_FORMATS)})")
    return forced_format


def _read(fmt: str, name: str, text: str, raw_lines: Iterable[bytes | str]) -> ImportResult:
    result = ImportResult()
    if fmt == JSON_FORMAT:
        result.documents = cyclictest_json.read(text, name, result.problems)
    else:
        result.documents = LINE_READERS[fmt](Lines(raw_lines), name, result.problems)
    for document in result.documents:  # the record of what was cut or disagrees stays with the data
        document["source"]["problems"] = list(result.problems)
    return result
