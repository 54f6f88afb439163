"""An image as a tree: every path (relative to the image root, `/`
separated), what it is, where its symlinks point, the facts of each ELF file
and the text of the loader's configuration files. Filled from a directory
(read_dir.py), a tar archive (read_tar.py) or, for the running system,
directory by directory as the audit asks (live.py). Nothing in it is ever
executed, and every question (does this library exist, where does that link
lead) is answered from the tree, so no symlink is ever followed by the
operating system.

Symlinks resolve as they would with the image as `/` (a chroot): absolute
targets start at the image root, `..` stops at it, and a chain longer than
the kernel's limit (40) is a loop."""

from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from portkit.commands.audit.rootfs.elf import ElfFacts

MAX_LINKS = 40  # Linux's MAXSYMLINKS
LOOP = "a symlink loop"
MAX_TEXT_BYTES = 1 << 16
# The kinds of Node that were seen but not read.
SPECIAL_KINDS = ("fifo", "character device", "block device", "socket")


def keeps_text(path: str) -> bool:
    """The configuration the loaders read: etc/ld.so.conf, etc/ld.so.conf.d/*, etc/ld-musl-ARCH.path."""
    return path.startswith("etc/ld")


@dataclass(frozen=True, slots=True)
class Node:
    kind: str  # file, dir, link, excluded (--exclude), or what was not read: fifo, character device, ...
    target: str = ""  # a link's target as written


@dataclass(frozen=True)
class Resolved:
    path: str | None  # the path with every link resolved, None when it leads nowhere
    why: str = ""  # when None: "usr/lib/x does not exist", "a symlink loop at lib/a"


class Source(Protocol):
    """Where a lazily read image (the running system) gets what it has not read yet."""

    def list(self, image: Image, directory: str) -> None:
        """Adds the entries of `directory` (once; not its files' contents)."""

    def read(self, image: Image, path: str) -> None:
        """Reads the file at `path` (once): its ELF facts, or its text."""


@dataclass(frozen=True)
class Exclusions:
    """--exclude's patterns: globs on paths from the image root (`usr/lib/debug`,
    `*.a`); a directory that matches is left out with everything under it."""

    patterns: tuple[str, ...] = ()

    def match(self, path: str) -> str | None:
        """The first pattern that matches path, or None."""
        for pattern in self.patterns:
            if fnmatch.fnmatchcase(path, pattern.strip("/")):
                return pattern
        return None


@dataclass
class Image:
    label: str  # the directory or archive as given
    root_uri: str | None  # file:// URI of a directory image (SARIF's base), None for an archive
    nodes: dict[str, Node] = field(default_factory=lambda: {"": Node("dir")})
    elves: dict[str, ElfFacts] = field(default_factory=dict)
    malformed: dict[str, str] = field(default_factory=dict)  # path -> why its ELF cannot be read
    texts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # one line per thing that could not be read
    excluded: dict[str, list[str]] = field(default_factory=dict)  # --exclude pattern -> the paths it left out
    truncated: str | None = None  # "the archive ends early after 423 members (...)"
    source: Source | None = None  # the running system: read as asked
    _children: dict[str, list[str]] = field(default_factory=dict)
    _unsorted: set[str] = field(default_factory=set)
    _named: dict[str, list[str]] = field(default_factory=dict)
    _resolved: dict[tuple[str, bool], Resolved] = field(default_factory=dict)
    _links: dict[str, Resolved] = field(default_factory=dict)  # a link's real path -> where it leads

    @property
    def live(self) -> bool:
        return self.source is not None

    def add(self, path: str, node: Node) -> None:
        parent = posixpath.dirname(path)
        missing = []
        while parent and parent not in self.nodes:  # archives may leave out parent directories
            missing.append(parent)
            parent = posixpath.dirname(parent)
        for directory in reversed(missing):
            self._insert(directory, Node("dir"))
        if path in self.nodes:
            self.nodes[path] = node
        else:
            self._insert(path, node)
        if self._resolved and self.source is None:  # a lazy image lists a directory before it answers
            self._resolved.clear()
            self._links.clear()

    def _insert(self, path: str, node: Node) -> None:
        directory, name = posixpath.split(path)
        self.add_child(directory, name, path, node)

    def add_child(self, directory: str, name: str, path: str, node: Node) -> None:
        """Adds a new entry `name` (at `path`) to `directory`, which is in the
        tree already: a directory listing's entries, without the checks of add()."""
        self.nodes[path] = node
        self._children.setdefault(directory, []).append(name)
        self._unsorted.add(directory)
        self._named.setdefault(name, []).append(path)

    def exclude(self, path: str, pattern: str) -> None:
        """`path` is left out by --exclude `pattern`: it stays in the tree, as a wall."""
        self.add(path, Node("excluded"))
        self.excluded.setdefault(pattern, []).append(path)

    def children(self, directory: str) -> list[str]:
        """Names in a directory (not resolved), sorted."""
        if self.source is not None:
            self.source.list(self, directory)
        if directory in self._unsorted:
            self._children[directory].sort()
            self._unsorted.discard(directory)
        return self._children.get(directory, [])

    def named(self, name: str) -> list[str]:
        """Every path read whose last part is name: where else a missing
        library lies, without a walk of the whole tree per name."""
        return self._named.get(name, [])

    def node(self, path: str) -> Node | None:
        found = self.nodes.get(path)
        if found is None and self.source is not None and path:
            self.source.list(self, posixpath.dirname(path))
            found = self.nodes.get(path)
        return found

    def elf(self, path: str) -> ElfFacts | None:
        """The facts of the ELF file at `path` (a real path), None when it is not one."""
        facts = self.elves.get(path)
        if facts is None and self.source is not None and path not in self.malformed:
            node = self.node(path)
            if node is not None and node.kind == "file":
                self.source.read(self, path)
                facts = self.elves.get(path)
        return facts

    def text(self, path: str) -> str | None:
        """The text of the configuration file at `path` (a real path), if read."""
        found = self.texts.get(path)
        if found is None and self.source is not None:
            node = self.node(path)
            if node is not None and node.kind == "file":
                self.source.read(self, path)
                found = self.texts.get(path)
        return found

    def resolve(self, path: str, *, follow_last: bool = True) -> Resolved:
        """`path` (absolute or relative, both from the image root) with its
        links resolved inside the image."""
        key = (path, follow_last)
        found = self._resolved.get(key)
        if found is None:
            found = self._walk(path, follow_last, [MAX_LINKS])
            if not found.why.startswith(LOOP):
                self._resolved[key] = found
        return found

    def _walk(self, path: str, follow_last: bool, budget: list[int]) -> Resolved:
        """Component by component; a link met on the way is followed once per
        image (its resolution kept under its own real path, which does not
        depend on how it was reached), each within the kernel's budget of
        links per lookup."""
        parts = [p for p in path.split("/") if p and p != "."]
        current = ""
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            if part == "..":
                current = posixpath.dirname(current)  # current is a directory: `..` is its parent, `/` stays
                continue
            here = f"{current}/{part}" if current else part
            node = self.node(here)
            if node is None:
                return Resolved(None, f"{here} does not exist")
            if node.kind == "excluded":
                return Resolved(None, f"{here} is left out (--exclude)")
            if node.kind == "link" and (follow_last or not last):
                followed = self._links.get(here)
                if followed is None:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return Resolved(None, f"{LOOP} at {here}")
                    target = node.target
                    joined = target if target.startswith("/") or not current else f"{current}/{target}"
                    followed = self._walk(joined, True, budget)
                    if followed.why.startswith(LOOP):
                        return followed
                    self._links[here] = followed
                if followed.path is None:
                    return followed
                current = followed.path
                if not last and self.nodes[current].kind != "dir":
                    return Resolved(None, f"{current} is not a directory")
                continue
            if not last and node.kind != "dir":
                return Resolved(None, f"{here} is not a directory")
            current = here
        return Resolved(current)

    def is_dir(self, path: str) -> bool:
        found = self.resolve(path).path
        return found is not None and self.nodes[found].kind == "dir"

    def elf_at(self, path: str) -> tuple[str, ElfFacts] | None:
        """The ELF file a path leads to (through links), with its real path."""
        found = self.resolve(path).path
        if found is None:
            return None
        facts = self.elf(found)
        return (found, facts) if facts is not None else None


Watcher = Callable[[Image], None]  # told of each entry read: the progress line


def note_odd_links(image: Image) -> None:
    """One line per symlink that loops, or that climbs above the image root
    (resolved inside it, as in a chroot); dangling links are common and quiet."""
    for path, node in list(image.nodes.items()):
        if node.kind != "link":
            continue
        resolved = image.resolve(path)
        if resolved.path is None and resolved.why.startswith("a symlink loop"):
            image.problems.append(f"{path}: {resolved.why}, not followed")
        elif not node.target.startswith("/"):
            climbed = posixpath.normpath(posixpath.join(posixpath.dirname(path), node.target))
            if climbed == ".." or climbed.startswith("../"):
                image.problems.append(f"{path}: points above the image root ({node.target}), resolved inside it")


def shown(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 as \\xNN escapes."""
    if name.isascii():
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def chunks(items: Sequence, size: int) -> list[Sequence]:
    return [items[n : n + size] for n in range(0, len(items), size)]
