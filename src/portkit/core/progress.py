"""What a long run is doing, on one line of stderr rewritten in place: only
on a terminal and without --quiet, so pipes, files and CI logs get nothing
extra. The one status line of every command (scan's files, rt's cells,
audit's image)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from types import TracebackType
from typing import TextIO

REFRESH_SECONDS = 0.1  # a terminal redrawn more often only flickers


class StatusLine:
    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = not quiet and self.stream.isatty()
        self._shown = False
        self._text = ""
        self._last = 0.0

    def show(self, text: str, *, now: bool = False) -> None:
        """Replaces the line with text (cut to the terminal's width); at most
        ten times a second unless now."""
        if not self.enabled or (self._shown and text == self._text):
            return
        moment = time.monotonic()
        if not now and self._shown and moment - self._last < REFRESH_SECONDS:
            return
        self._last = moment
        width = _columns(self.stream) - 1
        self.stream.write("\r\x1b[K" + text[:width])
        self.stream.flush()
        self._shown, self._text = True, text

    def clear(self) -> None:
        """Removes the line, before other output or at the end."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.clear()


def _columns(stream: TextIO) -> int:
    """The terminal's width; a terminal that reports none (0) is taken as 80 wide."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        columns = 0
    return columns or shutil.get_terminal_size().columns or 80


def duration(seconds: float) -> str:
    """`42 s`, `3 min 05 s`, `2 h 07 min`: elapsed and remaining times in a status line."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
