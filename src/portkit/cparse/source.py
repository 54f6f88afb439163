"""Reading a C or C++ input as text, or saying in one line why it cannot be one."""

from __future__ import annotations

import stat
from pathlib import Path

from portkit.core.errors import BadInput

MAX_BYTES = 64 * 1024 * 1024  # a source or header beyond this is not one


def read_source(path: Path, *, empty_ok: bool = False) -> str:
    """The file's text (UTF-8, else Latin-1, as compilers accept either); an
    empty one is refused unless empty_ok (a C file with nothing in it is valid)."""
    try:
        found = path.stat()
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(found.st_mode):  # a pipe is read once, and sources are read more than once
            raise BadInput(f"{path}: a pipe or a device, not a regular file")
        size = found.st_size
        if size > MAX_BYTES:
            raise BadInput(f"{path}: {size} bytes, too large for a header (limit {MAX_BYTES})")
        data = path.read_bytes()
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory") from None
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    if looks_binary(data):
        raise BadInput(f"{path}: binary file, not C")
    text, _ = decode_source(data)
    if not empty_ok and (not text or text.isspace()):  # not text.strip(): a copy of all of it
        raise BadInput(f"{path}: empty file")
    return text


def looks_binary(data: bytes) -> bool:
    """A NUL byte near the start: no C source or text file has one."""
    return b"\0" in data[:65536]


def decode_source(data: bytes) -> tuple[str, str]:
    """The text and the codec that read it: UTF-8, else Latin-1 (every byte
    one character), as compilers accept either. The codec maps a compiler's
    byte columns to characters."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"
