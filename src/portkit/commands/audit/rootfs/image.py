"""An image as a tree read once: every path (relative to the image root, `/`
separated), what it is, where its symlinks point, the facts of each ELF file
and the text of the loader's configuration files. Read from a directory or a
tar archive; nothing in it is ever executed, and after reading, every
question (does this library exist, where does that link lead) is answered
from the tree, so no symlink is ever followed by the operating system.

Symlinks resolve as they would with the image as `/` (a chroot): absolute
targets start at the image root, `..` stops at it, and a chain longer than
the kernel's limit (40) is a loop."""

from __future__ import annotations

import io
import lzma
import os
import posixpath
import re
import stat
import tarfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from portkit.commands.audit.rootfs.elf import ElfFacts, Malformed, is_elf, read_elf
from portkit.core.errors import BadInput

MAX_LINKS = 40  # Linux's MAXSYMLINKS
MAX_ELF_BYTES = 1 << 30  # an archive member this large is not read into memory
MAX_TEXT_BYTES = 1 << 16


def keeps_text(path: str) -> bool:
    """The configuration the loaders read: etc/ld.so.conf, etc/ld.so.conf.d/*, etc/ld-musl-ARCH.path."""
    return path.startswith("etc/ld")


@dataclass(frozen=True)
class Node:
    kind: str  # file, dir, link, or what was not read: fifo, char device, block device, socket
    target: str = ""  # a link's target as written


@dataclass(frozen=True)
class Resolved:
    path: str | None  # the path with every link resolved, None when it leads nowhere
    why: str = ""  # when None: "usr/lib/x does not exist", "a symlink loop at lib/a"


@dataclass
class Image:
    label: str  # the directory or archive as given
    root_uri: str | None  # file:// URI of a directory image (SARIF's base), None for an archive
    nodes: dict[str, Node] = field(default_factory=lambda: {"": Node("dir")})
    elves: dict[str, ElfFacts] = field(default_factory=dict)
    malformed: dict[str, str] = field(default_factory=dict)  # path -> why its ELF cannot be read
    texts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # one line per thing that could not be read
    _children: dict[str, list[str]] | None = None
    _named: dict[str, list[str]] | None = None
    _resolved: dict[tuple[str, bool], Resolved] = field(default_factory=dict)

    def add(self, path: str, node: Node) -> None:
        parent = posixpath.dirname(path)
        while parent and parent not in self.nodes:  # archives may leave out parent directories
            self.nodes[parent] = Node("dir")
            parent = posixpath.dirname(parent)
        self.nodes[path] = node
        self._children = self._named = None

    def children(self, directory: str) -> list[str]:
        """Names in a directory (not resolved), sorted."""
        if self._children is None:
            index: dict[str, list[str]] = {}
            for path in self.nodes:
                if path:
                    index.setdefault(posixpath.dirname(path), []).append(posixpath.basename(path))
            self._children = {d: sorted(names) for d, names in index.items()}
        return self._children.get(directory, [])

    def named(self, name: str) -> list[str]:
        """Every path whose last part is name, in tree order: where else a
        missing library lies, without a walk of the whole tree per name."""
        if self._named is None:
            index: dict[str, list[str]] = {}
            for path in self.nodes:
                if path:
                    index.setdefault(posixpath.basename(path), []).append(path)
            self._named = index
        return self._named.get(name, [])

    def resolve(self, path: str, *, follow_last: bool = True) -> Resolved:
        """`path` (absolute or relative, both from the image root) with its
        links resolved inside the image."""
        key = (path, follow_last)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(path, follow_last)
        return self._resolved[key]

    def _resolve(self, path: str, follow_last: bool) -> Resolved:
        parts = deque(p for p in path.split("/") if p)
        current: list[str] = []
        hops = 0
        while parts:
            part = parts.popleft()
            if part == ".":
                continue
            if part == "..":
                if current:
                    current.pop()
                continue
            here = "/".join([*current, part])
            node = self.nodes.get(here)
            if node is None:
                return Resolved(None, f"{here} does not exist")
            if node.kind == "link" and (parts or follow_last):
                hops += 1
                if hops > MAX_LINKS:
                    return Resolved(None, f"a symlink loop at {here}")
                if node.target.startswith("/"):
                    current = []
                parts.extendleft(reversed([p for p in node.target.split("/") if p]))
                continue
            if parts and node.kind != "dir":
                return Resolved(None, f"{here} is not a directory")
            current.append(part)
        return Resolved("/".join(current))

    def is_dir(self, path: str) -> bool:
        found = self.resolve(path).path
        return found is not None and self.nodes[found].kind == "dir"

    def elf_at(self, path: str) -> tuple[str, ElfFacts] | None:
        """The ELF file a path leads to (through links), with its real path."""
        found = self.resolve(path).path
        if found is None or found not in self.elves:
            return None
        return found, self.elves[found]


Watcher = Callable[[Image], None]  # told of each entry read: the progress line


def read_image(path: Path, watch: Watcher | None = None) -> Image:
    """The tree of a directory, or of a tar archive (plain, gz, bz2, xz);
    watch(image) after each entry."""
    try:
        info = path.stat()
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        image = Image(str(path), path.resolve().as_uri().rstrip("/") + "/")
        _read_directory(path, image, watch)
    elif stat.S_ISREG(info.st_mode):
        image = Image(str(path), None)
        _read_archive(path, image, watch)
    else:
        raise BadInput(f"{path}: neither a directory nor a tar archive")
    _note_odd_links(image)
    return image


def _note_odd_links(image: Image) -> None:
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
    return os.fsencode(name).decode("utf-8", "backslashreplace")


_SPECIAL = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _read_directory(root: Path, image: Image, watch: Watcher | None) -> None:
    """Walks without following links or entering other filesystems mounted
    inside (a live system's /proc holds an ELF file, kcore, as large as its
    memory); opens regular files only, with O_NOFOLLOW and O_NONBLOCK, so a
    file swapped for a FIFO or a link meanwhile is refused."""
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
            entries = sorted(os.scandir(real), key=lambda e: e.name)
        except OSError as err:
            image.problems.append(f"{path or '.'}: cannot list the directory ({err.strerror})")
            continue
        for entry in entries:
            child = f"{path}/{shown(entry.name)}" if path else shown(entry.name)
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISLNK(mode):
                    image.add(child, Node("link", shown(os.readlink(entry.path))))
                elif stat.S_ISDIR(mode):
                    image.add(child, Node("dir"))
                    stack.append((entry.path, child))
                elif stat.S_ISREG(mode):
                    image.add(child, Node("file"))
                    _read_file_at(entry.path, child, image)
                else:
                    what = _SPECIAL.get(stat.S_IFMT(mode), "not a regular file")
                    image.add(child, Node(what.split(" ", 1)[1]))
                    image.problems.append(f"{child}: {what}, not read")
            except OSError as err:
                image.problems.append(f"{child}: cannot read ({err.strerror})")
            if watch is not None:
                watch(image)


def _read_file_at(real: str, path: str, image: Image) -> None:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(real, flags)
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            image.problems.append(f"{path}: changed while read (no longer a regular file), not read")
            return
        _read_content(stream, path, image)


def _read_content(stream: BinaryIO, path: str, image: Image) -> None:
    head = stream.read(4)
    if is_elf(head):
        try:
            image.elves[path] = read_elf(stream, path)
        except Malformed as err:
            image.malformed[path] = str(err)
    elif keeps_text(path):
        data = head + stream.read(MAX_TEXT_BYTES)
        image.texts[path] = data.decode("utf-8", "replace")


def _read_archive(path: Path, image: Image, watch: Watcher | None) -> None:
    """Each member once, in archive order (compressed archives cannot seek
    back cheaply). Hard links share their target's facts."""
    try:
        archive = tarfile.open(path, "r:*")  # noqa: SIM115 - its errors become one line; `with` below closes it
    except (tarfile.TarError, OSError, EOFError) as err:
        raise _not_an_image(path, err) from None
    with archive:
        members = _members(archive, image)
        for member, name in members:
            if member.isdir():
                image.add(name, Node("dir"))
            elif member.issym():
                image.add(name, Node("link", shown(member.linkname)))
            elif member.islnk():
                _hard_link(name, _member_name(member.linkname), image)
            elif member.isreg():
                image.add(name, Node("file"))
                _read_member(archive, member, name, image)
            else:
                what = {tarfile.FIFOTYPE: "a FIFO", tarfile.CHRTYPE: "a character device"}.get(
                    member.type, "a block device" if member.isblk() else "not a regular file"
                )
                image.add(name, Node(what.split(" ", 1)[1]))
                image.problems.append(f"{name}: {what}, not read")
            if watch is not None:
                watch(image)


# Images that are not tar archives, by their first bytes (offset, magic): what
# to do with them instead. The boards' root filesystems come in these too.
OTHER_IMAGES = (
    (0, b"\x7fELF", "an ELF file", "give the root directory of the image it belongs to"),
    (0, b"070701", "a cpio archive", "unpack it (cpio -idm) and give the directory"),
    (0, b"070702", "a cpio archive", "unpack it (cpio -idm) and give the directory"),
    (0, b"070707", "a cpio archive", "unpack it (cpio -idm) and give the directory"),
    (0, b"hsqs", "a squashfs image", "unpack it (unsquashfs -d DIR) and give the directory"),
    (0, b"\x28\xb5\x2f\xfd", "zstd-compressed", "unpack it (zstd -d) to a tar archive or a directory"),
    (0, b"PK\x03\x04", "a zip archive", "unpack it and give the directory"),
    (1080, b"\x53\xef", "an ext2/3/4 filesystem image", "mount it read-only (or unpack it) and give the directory"),
)


def _not_an_image(path: Path, err: BaseException) -> BadInput:
    """One line for a file tarfile cannot open: what it is when its first
    bytes tell (with what to do), else tar's own reason."""
    try:
        with path.open("rb") as f:
            head = f.read(1082)
    except OSError:
        head = b""
    for offset, magic, what, hint in OTHER_IMAGES:
        if head[offset : offset + len(magic)] == magic:
            return BadInput(f"{path}: {what}, not a directory or a tar archive", hint=hint)
    return BadInput(
        f"{path}: not a directory or a tar archive portkit can read ({_one_line(err)})",
        hint="audit rootfs reads a directory, or a .tar, .tar.gz, .tar.bz2 or .tar.xz archive",
    )


def _members(archive: tarfile.TarFile, image: Image) -> Iterator[tuple[tarfile.TarInfo, str]]:
    count = 0
    try:
        for member in archive:
            count += 1
            name = _member_name(member.name)
            if name is None:
                image.problems.append(f"{shown(member.name)}: an archive member outside the image root, not read")
                continue
            if name:
                yield member, name
    except (tarfile.TarError, OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as err:
        image.problems.append(
            f"{image.label}: the archive ends early or is corrupt after {count} members ({_one_line(err)})"
        )


def _one_line(err: BaseException) -> str:
    """tarfile lists every method it tried, one a line (`- method tar:
    ReadError('truncated header')`): the plain tar reader's reason says enough."""
    lines = str(err).splitlines() or [type(err).__name__]
    if len(lines) == 1:
        return lines[0].rstrip(":")
    reason = re.search(r"method tar: \w+\('(.*)'\)", lines[-1])
    return f"tar: {reason.group(1)}" if reason else lines[-1].lstrip("- ")


def _member_name(name: str) -> str | None:
    """A member's path from the image root, or None when it climbs out of it."""
    clean = posixpath.normpath("/" + shown(name)).lstrip("/")
    raw = [p for p in shown(name).split("/") if p not in ("", ".")]
    depth = 0
    for part in raw:
        depth += -1 if part == ".." else 1
        if depth < 0:
            return None
    return "" if clean == "." else clean


def _hard_link(name: str, target: str | None, image: Image) -> None:
    image.add(name, Node("file"))
    if target in image.elves:
        image.elves[name] = image.elves[target]
    elif target in image.malformed:
        image.malformed[name] = image.malformed[target]
    elif target in image.texts:
        image.texts[name] = image.texts[target]


def _read_member(archive: tarfile.TarFile, member: tarfile.TarInfo, name: str, image: Image) -> None:
    if member.size < 4:
        return
    try:
        stream = archive.extractfile(member)
        if stream is None:
            return
        head = stream.read(4)
        if not is_elf(head) and not keeps_text(name):
            return
        if member.size > MAX_ELF_BYTES:
            image.problems.append(f"{name}: {member.size} bytes, too large to read from an archive")
            return
        data = head + stream.read()
    except (tarfile.TarError, OSError, EOFError, zlib.error, lzma.LZMAError) as err:
        image.problems.append(f"{name}: cannot be read from the archive ({_one_line(err)})")
        return
    _read_content(io.BytesIO(data), name, image)
