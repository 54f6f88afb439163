"""A directory image read whole: its tree walked once (names, kinds, link
targets: what a directory listing tells without opening a file), then its
regular files read in workers (read_files.py). The walk follows no link and
enters no other filesystem mounted inside (a live system's /proc holds an
ELF file, kcore, as large as its memory); --exclude's matches are walls."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from portkit.commands.audit.rootfs.image import Exclusions, Image, Node, Watcher, shown
from portkit.commands.audit.rootfs.read_files import Wanted, read_files

SPECIAL = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def read_directory(root: Path, image: Image, exclusions: Exclusions, watch: Watcher | None) -> None:
    wanted = walk(root, image, exclusions, watch)

    def done(_: int) -> None:
        if watch is not None:
            watch(image)

    read_files(wanted, image, done=done)


def walk(root: Path, image: Image, exclusions: Exclusions, watch: Watcher | None) -> list[Wanted]:
    """Adds every entry under root to the image; returns the regular files to read."""
    wanted: list[Wanted] = []
    seen_dirs: set[tuple[int, int]] = set()
    stack: list[tuple[str, str]] = [(os.fspath(root), "")]
    device = os.stat(root).st_dev
    while stack:
        real, path = stack.pop()
        try:
            info = os.stat(real, follow_symlinks=False)
            if path and info.st_dev != device:  # /proc, /sys or another disk mounted inside: as find -xdev
                image.problems.append(f"{path}: another filesystem is mounted here, not read")
                continue
            if (info.st_dev, info.st_ino) in seen_dirs:  # a bind mount of a parent
                image.problems.append(f"{path or '.'}: a directory met twice (a bind mount?), not read again")
                continue
            seen_dirs.add((info.st_dev, info.st_ino))
            with os.scandir(real) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as err:
            image.problems.append(f"{path or '.'}: cannot list the directory ({err.strerror})")
            continue
        for entry in entries:
            name = shown(entry.name)
            child = f"{path}/{name}" if path else name
            pattern = exclusions.match(child) if exclusions.patterns else None
            if pattern is not None:
                image.exclude(child, pattern)
                continue
            try:
                added = add_entry(entry, path, name, child, image)
            except OSError as err:
                image.problems.append(f"{child}: cannot read ({err.strerror})")
                continue
            if added == "dir":
                stack.append((entry.path, child))
            elif added == "file":
                wanted.append((entry.path, child))
        if watch is not None:
            watch(image)
    return wanted


FILE, DIR = Node("file"), Node("dir")


def add_entry(entry: os.DirEntry, directory: str, name: str, path: str, image: Image) -> str:
    """Adds one entry of `directory` (listed: it is in the tree) to the image,
    by the kind its listing gives (no stat where the file system tells);
    returns that kind."""
    if entry.is_symlink():
        image.add_child(directory, name, path, Node("link", shown(os.readlink(entry.path))))
        return "link"
    if entry.is_dir(follow_symlinks=False):
        image.add_child(directory, name, path, DIR)
        return "dir"
    if entry.is_file(follow_symlinks=False):
        image.add_child(directory, name, path, FILE)
        return "file"
    what = SPECIAL.get(stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode), "a file of an unknown kind")
    image.add_child(directory, name, path, Node(what.split(" ", 1)[1]))
    image.problems.append(f"{path}: {what}, not read")
    return "special"
