"""A tar archive of an image read in one streaming pass (plain, gz, bz2, xz):
each member once, in archive order, its data read only when it is an ELF
file or the loader's configuration, then dropped, so memory stays bounded by
the largest member whatever the archive's size. Hard links share their
target's facts. What tar itself would do with a hostile member is said, one
line each: a path that climbs out of the root is not read, an absolute one
is read from the root (as tar strips the leading /), a hard link to a path
outside the image, or to one the archive does not hold before it, is not
read, nor is a file under a symlink member that points outside the image."""

from __future__ import annotations

import bz2
import contextlib
import io
import lzma
import posixpath
import queue
import re
import tarfile
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from portkit.commands.audit.rootfs.elf import ElfFacts, Malformed, is_elf, read_elf_bytes, read_elf_fd
from portkit.commands.audit.rootfs.image import MAX_TEXT_BYTES, Exclusions, Image, Node, Watcher, keeps_text, shown
from portkit.commands.audit.rootfs.wording import listed
from portkit.core.errors import BadInput
from portkit.core.output import count


class Decompressor(Protocol):
    """zlib's decompressobj, bz2's and lzma's decompressors: what decompressed() uses of them."""

    eof: bool
    unused_data: bytes

    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


MAX_ELF_BYTES = 1 << 32  # an ELF member larger than this is not read at all
IN_MEMORY_BYTES = 16 << 20  # a larger ELF member goes through a temporary file: memory stays bounded
PIECE = 1 << 20  # what one read of a member's data takes
ERRORS = (tarfile.TarError, OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)
OUT = 4 << 20  # the most one step of decompression gives: a small archive of zeros cannot fill the memory
TRUNCATED = "Compressed file ended before the end-of-stream marker was reached"  # as gzip, bz2 and lzma say it


def _gzip() -> Decompressor:
    return zlib.decompressobj(wbits=31)


# How a compressed archive starts, and the decompressor of one of its streams (tarfile's own stream
# reader copies its whole buffer on every small read, which made a large archive's headers slow).
COMPRESSED: tuple[tuple[bytes, Callable[[], Decompressor]], ...] = (
    (b"\x1f\x8b", _gzip),
    (b"BZh", bz2.BZ2Decompressor),
    (b"\xfd7zXZ\x00", lzma.LZMADecompressor),
)

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


@dataclass
class _Absolute:
    """Members with absolute paths: one line for all of them."""

    names: list[str] = field(default_factory=list)

    def line(self) -> str | None:
        if not self.names:
            return None
        return (f"{count(len(self.names), 'member')} with an absolute path ({listed(self.names, 3)}): read from "
                "the image root, as tar does when it strips the leading /")  # fmt: skip


def read_archive(path: Path, image: Image, exclusions: Exclusions, watch: Watcher | None) -> None:
    try:
        raw = path.open("rb")
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    with raw:
        head = raw.read(6)
        raw.seek(0)
        new = next((kind for magic, kind in COMPRESSED if head.startswith(magic)), None)
        stream = Ahead(decompressed(raw, new)) if new is not None else raw
        try:
            try:
                archive = tarfile.open(fileobj=stream, mode="r:")  # noqa: SIM115 - closed below
            except ERRORS as err:
                raise not_an_image(path, err) from None
            with archive:
                _read_members(archive, image, exclusions, watch)
        finally:
            stream.close()


def decompressed(raw: BinaryIO, new: Callable[[], Decompressor]) -> Iterator[bytes]:
    """The decompressed bytes of raw, in pieces of at most OUT bytes, stream
    after stream (gzip, bzip2 and xz files may hold several one after
    another; zeros after the last are padding). Raises EOFError when the
    file ends inside a stream, as gzip.open would."""
    decompressor, fed, full, pending = new(), False, False, b""
    while True:
        if decompressor.eof:
            pending = decompressor.unused_data + pending
            decompressor, fed, full = new(), False, False
        if not fed and not pending.strip(b"\0"):
            pending = b""  # between streams, or after the last: only padding
        # zlib hands back what it did not take (unconsumed_tail); bz2 and lzma keep it and say when they need more
        hungry = decompressor.needs_input if hasattr(decompressor, "needs_input") else not full
        if not pending and hungry:
            pending = raw.read(PIECE)
            if not pending:
                if fed:
                    raise EOFError(TRUNCATED)
                return
            if not fed and not pending.strip(b"\0"):
                continue
        fed = fed or bool(pending)
        piece = decompressor.decompress(pending, OUT)
        pending = getattr(decompressor, "unconsumed_tail", b"")
        full = len(piece) == OUT
        if piece:
            yield piece


class Ahead:
    """A decompressed stream read ahead in a thread, a few pieces at most:
    zlib, bz2 and lzma let go of the interpreter while they work, so the
    archive is decompressed on one core while its members are read on the
    other. Forward only, as tarfile reads an archive member by member."""

    def __init__(self, source: Iterator[bytes], pieces: int = 4) -> None:
        self._pieces: queue.Queue[bytes | BaseException | None] = queue.Queue(maxsize=pieces)
        self._stop = threading.Event()
        self._current = memoryview(b"")
        self._position = 0
        self._ended = False
        self._thread = threading.Thread(target=self._fill, args=(source,), daemon=True)
        self._thread.start()

    def _fill(self, source: Iterator[bytes]) -> None:
        item: bytes | BaseException | None = None
        try:
            for piece in source:
                if self._stop.is_set():
                    return
                self._pieces.put(piece)
        except BaseException as err:  # handed to the reader, which raises it where tarfile expects it
            item = err
        if not self._stop.is_set():
            self._pieces.put(item)

    def _next_piece(self) -> bool:
        if self._ended:
            return False
        item = self._pieces.get()
        if item is None or isinstance(item, BaseException):
            self._ended = True
            if isinstance(item, BaseException):
                raise item
            return False
        self._current = memoryview(item)
        return True

    def read(self, size: int = -1) -> bytes:
        parts = []
        wanted = size if size >= 0 else 1 << 62
        while wanted > 0 and (self._current or self._next_piece()):
            take = self._current[:wanted]
            parts.append(bytes(take))
            self._current = self._current[len(take) :]
            wanted -= len(take)
        data = b"".join(parts)
        self._position += len(data)
        return data

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = offset if whence == io.SEEK_SET else self._position + offset
        if whence not in (io.SEEK_SET, io.SEEK_CUR) or target < self._position:
            raise io.UnsupportedOperation("a compressed archive is read forward only")
        while self._position < target and (self._current or self._next_piece()):
            skip = min(target - self._position, len(self._current))
            self._current = self._current[skip:]
            self._position += skip
        return self._position

    def tell(self) -> int:
        return self._position

    def close(self) -> None:
        self._stop.set()
        while self._thread.is_alive():  # a full queue holds the thread: empty it until it sees the stop
            with contextlib.suppress(queue.Empty):
                self._pieces.get(timeout=0.05)


def _read_members(archive: tarfile.TarFile, image: Image, exclusions: Exclusions, watch: Watcher | None) -> None:
    """Each member once, forward only (tarfile seeks forward over the data it skips)."""
    absolute = _Absolute()
    members = 0
    try:
        while (member := archive.next()) is not None:
            archive.members.clear()  # tarfile keeps every header it read; a stream needs none
            _member(archive, member, image, exclusions, absolute)
            members += 1
            if watch is not None:
                watch(image)
    except ERRORS as err:
        how = "ends early" if _ends_early(err) else "is damaged"
        image.truncated = f"the archive {how} after {count(members, 'member')} ({one_line(err)})"
        image.problems.append(f"{image.label}: {image.truncated}")
    line = absolute.line()
    if line is not None:
        image.problems.append(line)


def _member(
    archive: tarfile.TarFile, member: tarfile.TarInfo, image: Image, exclusions: Exclusions, absolute: _Absolute
) -> None:
    name = member_name(member.name)
    if name is None:
        image.problems.append(f"{shown(member.name)}: an archive member outside the image root, not read")
        return
    if not name:
        return
    if member.name.startswith("/"):
        absolute.names.append(shown(member.name))
    placed = _place(name, image)
    if placed is None:
        return
    if exclusions.patterns:
        pattern = exclusions.match(placed)
        if pattern is not None:
            image.exclude(placed, pattern)
            return
        if _under_excluded(placed, image):
            return
    if member.isdir():
        image.add(placed, Node("dir"))
    elif member.issym():
        image.add(placed, Node("link", shown(member.linkname)))
    elif member.islnk():
        _hard_link(placed, member.linkname, image)
    elif member.isreg():
        image.add(placed, Node("file"))
        _read_member(archive, member, placed, image)
    else:
        what = {tarfile.FIFOTYPE: "a FIFO", tarfile.CHRTYPE: "a character device"}.get(
            member.type, "a block device" if member.isblk() else "not a regular file"
        )
        image.add(placed, Node(what.split(" ", 1)[1]))
        image.problems.append(f"{placed}: {what}, not read")


def _ends_early(err: BaseException) -> bool:
    """Whether the stream stopped short (a cut file) rather than held bad
    bytes: gzip, xz and bz2 say EOFError, tar `unexpected end of data` or
    `truncated header`."""
    return isinstance(err, EOFError) or any(s in str(err) for s in ("end of data", "truncated"))


def _place(name: str, image: Image) -> str | None:
    """Where a member lands: its name, or, when a directory on its way is a
    symlink member, where that link leads inside the image; None (and a
    line) when the link points outside it."""
    parent = posixpath.dirname(name)
    if not parent:
        return name
    parts = parent.split("/")
    for depth in range(1, len(parts) + 1):
        prefix = "/".join(parts[:depth])
        node = image.nodes.get(prefix)
        if node is None or node.kind != "link":
            continue
        if node.target.startswith("/") or member_name(posixpath.join(posixpath.dirname(prefix), node.target)) is None:
            image.problems.append(
                f"{name}: under {prefix}, a symlink member to {node.target}, outside the image, not read"
            )
            return None
        resolved = image.resolve(parent).path
        if resolved is None:
            image.problems.append(f"{name}: under {prefix}, a symlink member that leads nowhere in the image, not read")
            return None
        return posixpath.join(resolved, posixpath.basename(name)) if resolved else posixpath.basename(name)
    return name


def _under_excluded(path: str, image: Image) -> bool:
    parent = posixpath.dirname(path)
    while parent:
        node = image.nodes.get(parent)
        if node is not None and node.kind == "excluded":
            return True
        parent = posixpath.dirname(parent)
    return False


def not_an_image(path: Path, err: BaseException) -> BadInput:
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
    # A cut compressed stream, or a tar header (ustar magic) cut short; a short file of anything else is no archive.
    looks_archived = any(head.startswith(magic) for magic, _ in COMPRESSED) or head[257:262] == b"ustar"
    if _ends_early(err) and looks_archived:
        return BadInput(f"{path}: the archive ends early, before its first member is whole ({one_line(err)})")
    return BadInput(
        f"{path}: not a directory or a tar archive portkit can read ({one_line(err)})",
        hint="audit rootfs reads a directory, or a .tar, .tar.gz, .tar.bz2 or .tar.xz archive",
    )


def one_line(err: BaseException) -> str:
    """tarfile lists every method it tried, one a line (`- method tar:
    ReadError('truncated header')`): the plain tar reader's reason says enough."""
    lines = str(err).splitlines() or [type(err).__name__]
    if len(lines) == 1:
        return lines[0].rstrip(":")
    reason = re.search(r"method tar: \w+\('(.*)'\)", lines[-1])
    return f"tar: {reason.group(1)}" if reason else lines[-1].lstrip("- ")


def member_name(name: str) -> str | None:
    """A member's path from the image root, or None when it climbs out of it."""
    clean = posixpath.normpath("/" + shown(name)).lstrip("/")
    depth = 0
    for part in shown(name).split("/"):
        if part in ("", "."):
            continue
        depth += -1 if part == ".." else 1
        if depth < 0:
            return None
    return "" if clean == "." else clean


def _hard_link(name: str, linkname: str, image: Image) -> None:
    target = member_name(linkname)
    if target is None or (linkname.startswith("/") and target not in image.nodes):
        image.problems.append(f"{name}: a hard link to {shown(linkname)}, outside the image, not read")
        return
    if image.nodes.get(target) is None or image.nodes[target].kind != "file":
        image.problems.append(
            f"{name}: a hard link to {target}, which the archive does not hold as a file before it, not read"
        )
        return
    image.add(name, Node("file"))
    if target in image.elves:
        image.elves[name] = image.elves[target]
    elif target in image.malformed:
        image.malformed[name] = image.malformed[target]
    elif target in image.texts:
        image.texts[name] = image.texts[target]


def _read_member(archive: tarfile.TarFile, member: tarfile.TarInfo, name: str, image: Image) -> None:
    """The member's facts or text; an error here is the stream's (it cannot
    skip a member it cannot read), and read_archive says it once."""
    if member.size < 4:
        return
    stream = archive.extractfile(member)
    if stream is None:
        return
    head = stream.read(4)
    if not is_elf(head):
        if keeps_text(name):
            image.texts[name] = (head + stream.read(MAX_TEXT_BYTES)).decode("utf-8", "replace")
        return
    if member.size > MAX_ELF_BYTES:
        image.problems.append(f"{name}: {member.size} bytes, too large to read from an archive")
        return
    try:
        image.elves[name] = _facts(stream, head, member.size, name)
    except Malformed as err:
        image.malformed[name] = str(err)


def _facts(stream, head: bytes, size: int, name: str) -> ElfFacts:
    """The ELF facts of the member being read (its first bytes read as
    `head`): from memory, or for a large member from a temporary file, so
    memory stays bounded."""
    if size <= IN_MEMORY_BYTES:
        data = bytearray(size)
        data[: len(head)] = head
        view = memoryview(data)
        done = len(head)
        while done < size:
            got = stream.readinto(view[done : min(size, done + PIECE)])
            if not got:
                raise tarfile.ReadError("unexpected end of data")
            done += got
        return read_elf_bytes(data, name)
    with tempfile.TemporaryFile() as spill:
        spill.write(head)
        while piece := stream.read(PIECE):
            spill.write(piece)
        if spill.tell() < size:
            raise tarfile.ReadError("unexpected end of data")
        spill.flush()
        return read_elf_fd(spill.fileno(), size, name)
