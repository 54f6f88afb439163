"""The text of the files findings point into, read once per run: for the
suppression comments, the fingerprints, and the lines text and SARIF show.
A file that cannot be read (gone, binary, too large) just has no lines."""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import overload

from portkit.cparse.source import MAX_BYTES, decode_source, looks_binary
from portkit.findings.suppression import suppressions_in

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what compilers count as a line end


class TextLines(Sequence[str]):
    """The lines of a text whose lines end in \n, each cut out when asked:
    findings ask for a few lines of a file, and splitting all of sqlite3.c's
    250,000 was most of the report's time. Where the lines start is found
    through the count of line ends in each block of BLOCK characters."""

    BLOCK = 4096

    def __init__(self, text: str) -> None:
        self._text = text
        ends = (text.count("\n", start, start + self.BLOCK) for start in range(0, len(text), self.BLOCK))
        self._ends_before = list(accumulate(ends, initial=0))  # line ends before each block, and in all
        self._length = self._ends_before[-1] + 1

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        start = self._start(index)
        end = self._text.find("\n", start)
        return self._text[start : end if end != -1 else len(self._text)]

    def _start(self, index: int) -> int:
        """Where line `index` (0-based) starts: after the index-th line end."""
        if index == 0:
            return 0
        block = bisect.bisect_left(self._ends_before, index) - 1  # the block holding that line end
        at = block * self.BLOCK - 1
        for _ in range(index - self._ends_before[block]):
            at = self._text.find("\n", at + 1)
        return at + 1


@dataclass(frozen=True)
class SourceFile:
    lines: Sequence[str]  # TextLines, or the list split made where lines may end in \r
    codec: str  # what decoded it: byte columns become characters through it

    def suppressions_near(self, number: int) -> dict[int, frozenset[str]]:
        """The suppression comments on line `number` and the line above, all
        that can hide a finding there (read where findings are, not the whole
        file: a quarter of the report's time on sqlite3.c)."""
        first = max(1, number - 1)
        found = suppressions_in(self.lines[first - 1 : max(0, number)])
        return {first + offset - 1: ids for offset, ids in found.items()}

    def line(self, number: int) -> str | None:
        """Line `number` (1-based) without its line end, or None past the end."""
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else None

    def char_index(self, line: str, byte_column: int) -> int:
        """The 0-based character index of a 1-based byte column in `line`
        (past the end: the end). A cut inside a UTF-8 sequence counts the
        whole character as before it."""
        if byte_column <= 1:
            return 0
        head = line.encode(self.codec)[: byte_column - 1]
        return len(head.decode(self.codec, errors="ignore"))


class SourceFiles:
    """Each file's text, read on first use and kept for this run only. With
    read=False none is read: the findings point into something that is not
    text below the working directory (an image's files, relative to its root).
    `texts_read`: files the command has read already (path as findings give
    it -> text); an ASCII one, which either codec reads the same, is not
    read again (sqlite3.c's 8.6 MB, read and decoded, is 0.01 s of every
    scan's end)."""

    def __init__(self, read: bool = True, texts_read: Mapping[str, str] | None = None) -> None:
        self._files: dict[str, SourceFile | None] = {}
        self._read = read
        self._texts_read = texts_read or {}

    def get(self, path: str) -> SourceFile | None:
        if path not in self._files:
            text = self._texts_read.get(path)
            if text is not None and text.isascii():
                self._files[path] = _source_file(text, "utf-8")
            else:
                self._files[path] = _read(Path(path)) if self._read else None
        return self._files[path]


def _read(path: Path) -> SourceFile | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:  # gone, a directory, no permission: the findings stand without their lines
        return None
    if looks_binary(data):
        return None
    return _source_file(*decode_source(data))


def _source_file(text: str, codec: str) -> SourceFile:
    return SourceFile(_NEWLINE.split(text) if "\r" in text else TextLines(text), codec)


def relative_to(path: str, cwd: Path) -> str:
    """`path` relative to the working directory when it lies inside it, else
    absolute; normalised, with / (so ./a.c, a.c and $PWD/a.c are one file)."""
    absolute = Path(os.path.normpath(cwd / path))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return absolute.as_posix()
