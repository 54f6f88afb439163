"""What the host and the VM's init say to each other over the serial
console (core.vm.initramfs.init_script has the guest's side).

Every line the init writes for the host starts with this boot's marker
(`@pk-` and a random token) followed by a run's id, a kind and its text;
anything else on the console is the kernel's or the firmware's, and a
marker may follow firmware output on the same line. Stdout and returned
files travel gzipped in base64, so a document's bytes arrive exactly; the
host's requests are base64 too, so no argument can break a line."""

from __future__ import annotations

import base64
import secrets
import zlib
from dataclasses import dataclass

CHUNK = 512  # base64 characters per request line: far below the tty's 4095-byte line
READY = "ready"


def new_marker() -> str:
    return f"@pk-{secrets.token_hex(6)}"


@dataclass(frozen=True)
class Reply:
    run: int  # 0: the init itself (ready)
    kind: str  # p e F f M o x, or ready
    text: str


def parse(line: str, marker: str) -> Reply | None:
    """The reply on a console line, or None when the line is not one (a
    kernel message, firmware output)."""
    at = line.find(marker + " ")
    if at < 0:
        return None
    words = line[at + len(marker) + 1 :].rstrip("\r\n").split(" ", 2)
    if len(words) < 2 or not words[0].isdigit():
        return None
    return Reply(int(words[0]), words[1], words[2] if len(words) > 2 else "")


def run_request(run: int, script: str, returns: list[str]) -> list[str]:
    """The lines that make the init run script as run `run`, then send back
    the files named in returns."""
    encoded = base64.b64encode(script.encode()).decode()
    lines = [f"a {run} {encoded[i : i + CHUNK]}" for i in range(0, len(encoded), CHUNK)]
    lines += [f"w {run} {encode_text(path)}" for path in returns]
    lines.append(f"r {run}")
    return lines


def encode_text(text: str) -> str:
    return base64.b64encode(text.encode("utf-8", "surrogateescape")).decode()


def decode_text(word: str) -> str:
    try:
        return base64.b64decode(word, validate=True).decode("utf-8", "surrogateescape")
    except ValueError:
        return word


def decode_gzip(lines: list[str]) -> bytes | None:
    """The bytes of gzip -c | base64 output, None when they arrived damaged."""
    try:
        packed = base64.b64decode("".join(lines), validate=True)
        if not packed:
            return b""
        inflate = zlib.decompressobj(wbits=31)
        data = inflate.decompress(packed)
    except (ValueError, zlib.error):
        return None
    # a stream cut short decompresses without complaint: only its end (and CRC) proves it whole
    return data if inflate.eof else None
