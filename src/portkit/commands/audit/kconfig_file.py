"""A kernel .config read into {option: value}: `CONFIG_X=value` lines (value
as written: y, m, a number or a quoted string) and `# CONFIG_X is not set`
(value "n"); plain, .gz or .xz. The rootfs audit's --kconfig reads it.

The one place audit reads a kernel configuration file; the kconfig audit's
reader is to replace it (same result: a dict without the CONFIG_ prefix)."""

from __future__ import annotations

import gzip
import lzma
import re
from pathlib import Path

from portkit.core.errors import BadInput

MAX_BYTES = 16 << 20  # a kernel config is about 300 KB
_SET = re.compile(r"CONFIG_([A-Za-z0-9_]+)=(.*)")
_UNSET = re.compile(r"# CONFIG_([A-Za-z0-9_]+) is not set")


def read_kconfig(path: Path, option: str = "--kconfig") -> dict[str, str]:
    where = f"{option} {path}"
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        elif raw[:6] == b"\xfd7zXZ\x00":
            raw = lzma.decompress(raw)
    except OSError as err:
        raise BadInput(f"{where}: {err.strerror or err}") from None
    except (EOFError, lzma.LZMAError, gzip.BadGzipFile, ValueError) as err:
        raise BadInput(f"{where}: a damaged compressed file ({err})") from None
    if len(raw) > MAX_BYTES:
        raise BadInput(f"{where}: {len(raw)} bytes, not a kernel configuration")
    config = parse_kconfig(raw.decode("utf-8", "replace"))
    if not config:
        raise BadInput(f"{where}: not a kernel configuration (no CONFIG_ lines)")
    return config


def parse_kconfig(text: str) -> dict[str, str]:
    config: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if found := _SET.fullmatch(line):
            config[found.group(1)] = found.group(2)
        elif found := _UNSET.fullmatch(line):
            config[found.group(1)] = "n"
    return config
