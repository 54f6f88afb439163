"""The files of a directory image read for what the audit needs: each
regular file opened once (O_NOFOLLOW, O_NONBLOCK: a file swapped for a link
or a FIFO meanwhile is refused), its first bytes read, and only an ELF file
read further (elf.py: the tables the rules need) or a loader's configuration
kept as text. Many files are read in worker processes (core.workers), one
per core, in chunks; each answer is what one file is."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence

from portkit.commands.audit.rootfs.elf import HEAD_BYTES, ElfFacts, Malformed, is_elf, read_elf_fd
from portkit.commands.audit.rootfs.image import MAX_TEXT_BYTES, Image, keeps_text
from portkit.core.workers import Failed, default_jobs, run_isolated

CHUNK = 256  # files per task: large enough that a task's round trip is noise, small enough to balance two cores
INLINE = 1024  # fewer files than this are read in this process: forking would cost more than it saves

# What one file is: ("elf", facts), ("malformed", why), ("text", text), ("problem", line), or None (other data).
Outcome = tuple[str, ElfFacts | str] | None
Wanted = tuple[str, str]  # (its path on this machine, its path in the image)


def read_file(real: str, path: str) -> Outcome:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as err:
        return ("problem", f"{path}: cannot read ({err.strerror})")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ("problem", f"{path}: changed while read (no longer a regular file), not read")
        head = os.pread(fd, HEAD_BYTES, 0)
        if is_elf(head):
            try:
                return ("elf", read_elf_fd(fd, info.st_size, path, head))
            except Malformed as err:
                return ("malformed", str(err))
        if keeps_text(path):
            data = head + os.pread(fd, MAX_TEXT_BYTES, len(head)) if len(head) == HEAD_BYTES else head
            return ("text", data[:MAX_TEXT_BYTES].decode("utf-8", "replace"))
        return None
    except OSError as err:
        return ("problem", f"{path}: cannot read ({err.strerror})")
    finally:
        os.close(fd)


def _read_chunk(chunk: Sequence[Wanted]) -> list[Outcome]:
    return [read_file(real, path) for real, path in chunk]


def read_files(
    wanted: Sequence[Wanted], image: Image, jobs: int | None = None, done: Callable[[int], None] | None = None
) -> None:
    """Reads every wanted file into the image; `done(n)` after each n files."""
    jobs = jobs or default_jobs()
    if jobs == 1 or len(wanted) < INLINE:
        for n, (real, path) in enumerate(wanted, 1):
            record(image, path, read_file(real, path))
            if done is not None and n % CHUNK == 0:
                done(CHUNK)
        return
    tasks = [wanted[n : n + CHUNK] for n in range(0, len(wanted), CHUNK)]

    def finished(index: int) -> None:
        if done is not None:
            done(len(tasks[index]))

    for chunk, outcomes in zip(tasks, run_isolated(_read_chunk, tasks, jobs, None, done=finished), strict=True):
        if isinstance(outcomes, Failed):  # pure Python does not crash; a worker killed from outside does
            image.problems.append(f"{len(chunk)} files from {chunk[0][1]} on: not read (a worker {outcomes.reason})")
            continue
        for (_, path), outcome in zip(chunk, outcomes, strict=True):
            record(image, path, outcome)


def record(image: Image, path: str, outcome: Outcome) -> None:
    if outcome is None:
        return
    kind, value = outcome
    if kind == "elf":
        image.elves[path] = value  # type: ignore[assignment]
    elif kind == "malformed":
        image.malformed[path] = value  # type: ignore[assignment]
    elif kind == "text":
        image.texts[path] = value  # type: ignore[assignment]
    else:
        image.problems.append(value)  # type: ignore[arg-type]
