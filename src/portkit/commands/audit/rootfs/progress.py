"""audit rootfs's progress line (core.progress.StatusLine: a terminal's
stderr only, never with --quiet): the phase (reading, resolving, checking),
the entries and ELF files read so far and the time since the start. A live
system's /usr takes tens of seconds."""

from __future__ import annotations

import time

from portkit.commands.audit.rootfs.image import Image, Watcher
from portkit.commands.audit.rootfs.wording import entries
from portkit.core.output import count
from portkit.core.progress import StatusLine, duration


class Progress:
    def __init__(self, status: StatusLine) -> None:
        self.status = status
        self.start = time.monotonic()
        self.image: Image | None = None

    def watcher(self) -> Watcher | None:
        """What read_image calls after each entry; None when nothing is shown,
        so a pipe or --quiet costs nothing."""
        if not self.status.enabled:
            return None

        def read(image: Image) -> None:
            self.image = image
            self.show("reading")  # StatusLine redraws at most ten times a second

        return read

    def show(self, phase: str, image: Image | None = None, *, now: bool = False) -> None:
        """`audit rootfs: checking PKR201  188190 entries, 3429 ELF files, 25 s`."""
        self.image = image or self.image
        parts = [duration(time.monotonic() - self.start)]
        if self.image is not None:
            paths, elves = len(self.image.nodes) - 1, len(self.image.elves)
            parts[:0] = [entries(paths), count(elves, "ELF file")]
        self.status.show(f"audit rootfs: {phase}  {', '.join(parts)}", now=now)
