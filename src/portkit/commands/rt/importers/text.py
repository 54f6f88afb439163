"""Lines of an imported file, and the one-line errors that point into them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from portkit.core.errors import BadInput
from portkit.core.output import escaped

MAX_NS = 2**53 - 1  # JSON readers lose integer precision beyond this (docs/formats.md)
MAX_DIGITS = 18  # more is no latency or count; int() of thousands of digits is slow or refused
QUOTE_CHARS = 40

_ANSI_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # cyclictest's live screen moves the cursor up


@dataclass(frozen=True)
class Line:
    number: int  # 1-based
    text: str  # without the line end


def shown(text: str) -> str:
    """A line as an error message quotes it: short, printable, in quotes."""
    printable = escaped(text)
    if len(printable) > QUOTE_CHARS:
        printable = printable[:QUOTE_CHARS] + "…"
    return f"'{printable}'"


def bad(name: str, line: Line | int | None, message: str) -> BadInput:
    """`FILE:LINE: message`, or `FILE: message` for the file as a whole."""
    number = line.number if isinstance(line, Line) else line
    return BadInput(f"{name}:{number}: {message}" if number else f"{name}: {message}")


def decode(raw: bytes | str) -> str:
    """One line's text: UTF-8, any other byte kept visible as `\\xNN`; the line
    end (LF, or CR LF from a serial console) and cursor movements removed."""
    text = raw if isinstance(raw, str) else raw.decode("utf-8", "backslashreplace")
    text = text.rstrip("\n").rstrip("\r")
    return _ANSI_CONTROL.sub("", text) if "\x1b" in text else text


def split_lines(text: str) -> Iterator[str]:
    """A text's lines with their newlines; only LF ends a line (str.splitlines
    would also split at form feeds and other characters junk may hold)."""
    parts = text.split("\n")
    for part in parts[:-1]:
        yield part + "\n"
    if parts[-1]:
        yield parts[-1]


class Lines:
    """The complete lines of a file, numbered. cyclictest and rtla end every
    line with a newline, so a last line without one was cut short (the run or
    the copy stopped mid-write): it is held back in `cut` for the reader to
    report rather than read as a sample whose digits may be missing."""

    def __init__(self, raw_lines: Iterable[bytes | str], first_number: int = 1) -> None:
        self._raw = raw_lines
        self._first = first_number
        self.cut: Line | None = None

    def __iter__(self) -> Iterator[Line]:
        number = self._first - 1
        for raw in self._raw:
            number += 1
            ends = raw.endswith(b"\n") if isinstance(raw, bytes) else raw.endswith("\n")
            line = Line(number, decode(raw))
            if not ends:
                self.cut = line
                return
            yield line


def whole_number(text: str, name: str, line: Line | None, what: str) -> int:
    """A non-negative integer as a source writes it (leading zeros allowed)."""
    digits = text.strip()
    if not digits.isascii() or not digits.isdigit():
        raise bad(name, line, f"{what}: expected a whole number, got {shown(text)}")
    digits = digits.lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise bad(name, line, f"{what}: {digits[:12]}… ({len(digits)} digits) is too large")
    return int(digits)


def in_ns(value: int, unit_ns: int, name: str, line: Line | None, what: str) -> int:
    """A time in the source's unit as ns, within what JSON carries exactly."""
    ns = value * unit_ns
    if ns > MAX_NS:
        raise bad(name, line, f"{what}: {value} is too large for a latency (over 2^53 ns)")
    return ns
