"""Reading a kernel configuration: a .config, a config.gz or config.xz (told
apart by their first bytes, not their names), into its settings and the
lines that are not settings.

Kconfig writes three kinds of lines: `CONFIG_NAME=value`, `# CONFIG_NAME is
not set`, and other comments (the header, menu titles) or blank lines. A line
of any other shape is one problem line (`FILE:LINE: ...`); the rest of the
file still counts. Only a file with no setting at all is not a config
(BadInput, exit 2). A name set twice keeps its last value, as `make
olddefconfig` would, and is a problem line too."""

from __future__ import annotations

import gzip
import io
import lzma
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from portkit.core.errors import BadInput
from portkit.core.output import escaped

MAX_BYTES = 64 * 1024 * 1024  # a config is ~300 KB; a file or its unpacked text past this is not one
GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"

_SETTING = re.compile(r"CONFIG_([A-Za-z0-9_]+)=(.*)")
_NOT_SET = re.compile(r"# CONFIG_([A-Za-z0-9_]+) is not set")
# A value as Kconfig writes it: a double-quoted string (backslash escapes), or one word.
_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"#]*')
# The header of a generated config: `# Linux/arm64 6.1.176 Kernel Configuration`
# (2.6.24 on), or `# Linux kernel version: 2.6.15-rc7-rt3` before.
_HEADER = re.compile(r"#\s*Linux/(\S+)\s+(\S+)\s+Kernel Configuration\s*")
_OLD_HEADER = re.compile(r"#\s*Linux kernel version:\s*(\S+)\s*")
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


@dataclass(frozen=True)
class Setting:
    name: str  # without CONFIG_
    value: str | None  # as written ("y", "m", "250", '"gcc 12"'); None: `# CONFIG_NAME is not set`
    line: int  # 1-based

    @property
    def is_set(self) -> bool:
        """Set to something other than n (Kconfig's `=n` is the same as not set)."""
        return self.value is not None and self.value != "n"


@dataclass(frozen=True)
class Header:
    arch: str | None  # ARCH= of the build as the header names it: arm64, arm, x86, x86_64, i386, mips, ...
    version: str  # "6.1.176", "2.6.15-rc7-rt3"
    line: int

    @property
    def version_tuple(self) -> tuple[int, int, int] | None:
        match = _VERSION.match(self.version)
        if match is None:
            return None
        return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


@dataclass
class KernelConfig:
    path: str  # as given, for messages and findings
    settings: dict[str, Setting] = field(default_factory=dict)
    header: Header | None = None
    problems: list[str] = field(default_factory=list)  # one line each, `PATH:LINE: ...`
    lines: int = 0
    compression: str | None = None  # "gzip", "xz" or None

    def get(self, name: str) -> Setting | None:
        return self.settings.get(name)

    def values(self) -> dict[str, str]:
        """{name: value as written}, "n" for `# CONFIG_NAME is not set`."""
        return {name: "n" if s.value is None else s.value for name, s in self.settings.items()}


def read_config_file(path: Path) -> KernelConfig:
    """The config in a file, or BadInput naming it and why it is not one."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory, not a kernel config") from None
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    if len(data) > MAX_BYTES:
        raise BadInput(f"{path}: larger than {MAX_BYTES} bytes, not a kernel config")
    return parse_config_bytes(data, str(path))


def parse_config_bytes(data: bytes, path: str) -> KernelConfig:
    """A config from a file's bytes: plain text, gzip or xz."""
    compression = None
    if data.startswith(GZIP_MAGIC):
        compression, data = "gzip", _gunzip(data, path)
    elif data.startswith(XZ_MAGIC):
        compression, data = "xz", _unxz(data, path)
    if not data.strip():
        raise BadInput(f"{path}: empty file, not a kernel config")
    if b"\0" in data:
        raise BadInput(f"{path}: binary data, not a kernel config")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # a string value in another encoding; every byte stays one character
    config = parse_config_text(text, path)
    config.compression = compression
    if not config.settings:
        raise BadInput(f"{path}: no CONFIG_ lines, not a kernel config")
    return config


def parse_config_text(text: str, path: str) -> KernelConfig:
    config = KernelConfig(path)
    lines = text.splitlines()
    config.lines = len(lines)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            _comment(config, line, number)
        elif match := _SETTING.fullmatch(line):
            value = match.group(2).strip()
            if not _VALUE.fullmatch(value):
                config.problems.append(f"{path}:{number}: CONFIG_{match.group(1)}: malformed value {_shown(value)}")
                continue
            _set(config, Setting(match.group(1), value, number))
        else:
            config.problems.append(
                f"{path}:{number}: not a config line (CONFIG_NAME=value, '# CONFIG_NAME is not set' "
                f"or a comment): {_shown(line)}"
            )
    return config


def _comment(config: KernelConfig, line: str, number: int) -> None:
    if match := _NOT_SET.fullmatch(line):
        _set(config, Setting(match.group(1), None, number))
    elif config.header is None and (match := _HEADER.fullmatch(line)):
        config.header = Header(match.group(1), match.group(2), number)
    elif config.header is None and (match := _OLD_HEADER.fullmatch(line)):
        config.header = Header(None, match.group(1), number)


def _set(config: KernelConfig, setting: Setting) -> None:
    earlier = config.settings.get(setting.name)
    if earlier is not None and earlier.value != setting.value:
        config.problems.append(
            f"{config.path}:{setting.line}: CONFIG_{setting.name} is {_described(setting)} here "
            f"but {_described(earlier)} on line {earlier.line}; the last one counts"
        )
    config.settings[setting.name] = setting


def _described(setting: Setting) -> str:
    return "not set" if setting.value is None else f"{setting.value}"


def _shown(text: str, limit: int = 60) -> str:
    """A line quoted in a message: control characters escaped, cut to a readable length."""
    printable = escaped(text)
    return repr(printable if len(printable) <= limit else printable[:limit] + "...")


def _gunzip(data: bytes, path: str) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            out = f.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise BadInput(f"{path}: broken gzip data ({_reason(err)})") from None
    if len(out) > MAX_BYTES:
        raise BadInput(f"{path}: unpacks to more than {MAX_BYTES} bytes, not a kernel config")
    return out


def _unxz(data: bytes, path: str) -> bytes:
    decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        out = decompressor.decompress(data, max_length=MAX_BYTES + 1)
    except lzma.LZMAError as err:
        raise BadInput(f"{path}: broken xz data ({_reason(err)})") from None
    if len(out) > MAX_BYTES:
        raise BadInput(f"{path}: unpacks to more than {MAX_BYTES} bytes, not a kernel config")
    if not decompressor.eof:
        raise BadInput(f"{path}: broken xz data (it ends early)")
    return out


def _reason(err: BaseException) -> str:
    text = str(err).strip()
    if isinstance(err, EOFError):
        return "it ends early"
    return text or type(err).__name__
