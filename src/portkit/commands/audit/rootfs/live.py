"""The running system (`audit rootfs /`), read as its own loader meets it:
the programs in PATH's directories, the libraries in the directories its
loaders search, and whatever those load (through RPATH, RUNPATH, links),
each directory listed and each file read the first time the audit asks.
Nothing else of / is read: cross toolchains' sysroots (/usr/<triple>,
/usr/lib/gcc-cross), other architectures' libraries, build trees, other
images and home directories are not what this system's loader loads; the
summary names the ones it passed."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from portkit.commands.audit.rootfs.image import Exclusions, Image, Node, Watcher, shown
from portkit.commands.audit.rootfs.read_dir import add_entry
from portkit.commands.audit.rootfs.read_files import Wanted, read_file, read_files, record

# Debian's default PATH (/etc/login.defs, ENV_SUPATH and ENV_PATH), and the
# directory of helper programs the FHS gives packages.
PATH_DIRS = ("usr/local/sbin", "usr/local/bin", "usr/sbin", "usr/bin", "sbin", "bin", "usr/games", "usr/local/games")
HELPER_DIRS = ("usr/libexec",)
# A toolchain's triple as directories are named after it: aarch64-linux-gnu, x86_64-w64-mingw32, arm-none-eabi.
_TRIPLE = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)?-(?:linux-[a-z0-9_]+|w64-mingw32|mingw32|elf|eabi[a-z]*)")
# Top directories of / that hold no files a program loads (kernel and runtime filesystems).
_SYSTEM_MOUNTS = frozenset({"proc", "sys", "dev", "run"})


def is_running_system(path: Path) -> bool:
    """Whether path is this machine's own root directory (a chroot's / too)."""
    try:
        here, root = os.stat(path), os.stat("/")
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (root.st_dev, root.st_ino)


@dataclass
class LiveSource:
    """Lists directories and reads files of the running system on demand (image.Source)."""

    root: str
    exclusions: Exclusions
    device: int = 0
    watch: Watcher | None = None
    listed: set[str] = field(default_factory=set)
    read_paths: set[str] = field(default_factory=set)

    def list(self, image: Image, directory: str) -> None:
        if directory in self.listed:
            return
        self.listed.add(directory)
        node = image.nodes.get(directory)
        if node is None or node.kind != "dir":
            return
        real = os.path.join(self.root, directory)
        try:
            if directory and os.stat(real, follow_symlinks=False).st_dev != self.device:
                image.problems.append(f"{directory}: another filesystem is mounted here, not read")
                return
            with os.scandir(real) as listing:
                entries = list(listing)
        except OSError as err:
            image.problems.append(f"{directory or '.'}: cannot list the directory ({err.strerror})")
            return
        for entry in entries:
            name = shown(entry.name)
            path = f"{directory}/{name}" if directory else name
            pattern = self.exclusions.match(path) if self.exclusions.patterns else None
            if pattern is not None:
                image.exclude(path, pattern)
                continue
            try:
                add_entry(entry, directory, name, path, image)
            except OSError as err:
                image.add_child(directory, name, path, Node("file"))
                image.problems.append(f"{path}: cannot read ({err.strerror})")

    def read(self, image: Image, path: str) -> None:
        if path not in self.read_paths:
            self.read_paths.add(path)
            record(image, path, read_file(os.path.join(self.root, path), path))

    def prefetch(self, image: Image, directories: list[str], *, recursive: bool = False) -> list[str]:
        """Lists the directories (and with `recursive` those below them) and
        reads their files in workers; returns the real paths of those files."""
        files: list[str] = []
        pending = [real for d in directories if (real := image.resolve(d).path) is not None]
        seen: set[str] = set()
        while pending:
            directory = pending.pop()
            if directory in seen or not image.is_dir(directory):
                continue
            seen.add(directory)
            for name in image.children(directory):
                path = f"{directory}/{name}" if directory else name
                kind = image.nodes[path].kind
                if kind == "file":
                    files.append(path)
                elif kind == "dir" and recursive:
                    pending.append(path)
        wanted: list[Wanted] = [(os.path.join(self.root, p), p) for p in files if p not in self.read_paths]
        self.read_paths.update(p for _, p in wanted)
        watch = self.watch
        read_files(wanted, image, done=(lambda _: watch(image)) if watch is not None else None)
        return files


def live_image(root: Path, exclusions: Exclusions, watch: Watcher | None = None) -> Image:
    """The running system as a lazily read image, its programs read already."""
    source = LiveSource(os.fspath(root), exclusions, os.stat(root).st_dev, watch)
    image = Image(str(root), root.resolve().as_uri().rstrip("/") + "/", source=source)
    image.excluded = {pattern: [] for pattern in exclusions.patterns}
    source.prefetch(image, list(PATH_DIRS))
    source.prefetch(image, list(HELPER_DIRS), recursive=True)
    return image


def program_paths(image: Image) -> list[str]:
    """The real paths of the ELF files PATH's directories and the helper
    directories hold or link to (/usr/bin/java -> /usr/lib/jvm/.../java)."""
    found: dict[str, None] = {}
    pending = [(d, d in HELPER_DIRS) for d in (*PATH_DIRS, *HELPER_DIRS)]
    seen: set[str] = set()
    while pending:
        directory, recursive = pending.pop()
        real = image.resolve(directory).path
        if real is None or real in seen or not image.is_dir(real):
            continue
        seen.add(real)
        for name in image.children(real):
            path = f"{real}/{name}" if real else name
            if image.nodes[path].kind == "dir":
                if recursive:
                    pending.append((path, True))
                continue
            target = image.elf_at(path)
            if target is not None:
                found.setdefault(target[0])
    return list(found)


def left_out(image: Image, searched: set[str]) -> dict[str, list[str]]:
    """What of / the audit of the running system passed without reading it,
    by what it is: cross toolchains' sysroots, other ABIs' library
    directories (by their multiarch names), and the top directories nothing
    led to."""
    sysroots = [f"usr/{n}" for n in image.children("usr") if _TRIPLE.fullmatch(n) and image.is_dir(f"usr/{n}")]
    sysroots += [d for d in ("usr/lib/gcc-cross",) if image.is_dir(d)]
    others = []
    for libdir in ("usr/lib", "usr/lib32", "usr/lib64", "usr/libx32"):
        real = image.resolve(libdir).path
        if real is None or not image.is_dir(real):
            continue
        for name in image.children(real):
            path = f"{real}/{name}"
            if _TRIPLE.fullmatch(name) and path not in searched and image.nodes[path].kind == "dir":
                others.append(path)
    source = image.source
    listed = source.listed if isinstance(source, LiveSource) else set()
    untouched = [
        f"{name}/"
        for name in image.children("")
        if image.nodes[name].kind == "dir" and name not in _SYSTEM_MOUNTS and name not in listed
    ]
    return {"sysroots": sorted(sysroots), "other_abis": sorted(dict.fromkeys(others)), "not_read": untouched}
