"""Running portkit on a terminal of a given size, as a user at an 80-column
terminal would: stdout and stderr are a pseudo-terminal, so portkit fits its
text to it and shows progress, which it never does on a pipe."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class Screen:
    returncode: int
    raw: str  # everything the terminal received, escape sequences and \r included

    @property
    def lines(self) -> list[str]:
        """The lines as they stand once each carriage return has rewritten its line."""
        text = ESCAPES.sub("", self.raw).replace("\r\n", "\n")
        return [line.rsplit("\r", 1)[-1] for line in text.split("\n")]


def run_on_terminal(
    argv: Sequence[str],
    columns: int = 80,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> Screen:
    """Runs `portkit ARGV` with stdout and stderr on a pty of `columns` x 24."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    environment.update(env or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "portkit", *argv],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env=environment,
        start_new_session=True,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return Screen(proc.wait(timeout=timeout), b"".join(chunks).decode("utf-8", "replace"))
