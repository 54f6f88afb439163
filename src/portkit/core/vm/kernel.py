"""The kernel a `vm:` target boots, and the busybox its init runs on.

`vm:PACKAGE[:ARCH]` is a Debian kernel package (a metapackage such as
linux-image-arm64 leads to the image it depends on), fetched once into the
cache; `vm:PATH` is a kernel image (arm64 Image, x86 bzImage, ARM zImage, an
ELF vmlinux) or a .deb. Only /boot is kept of a package: the image and its
config. An x86 bzImage is booted through the PVH entry of the vmlinux inside
it where it has one, which skips the decompressor (seconds under TCG).

The cache is $XDG_CACHE_HOME/portkit (else ~/.cache/portkit): vm/kernels/
holds each package's /boot, vm/busybox/ each architecture's busybox, vm/pvh/
the vmlinux taken out of a bzImage (by the bzImage's SHA-256)."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from portkit.core.arches import Arch, arch_of_elf, find_arch
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.progress import StatusLine
from portkit.core.vm import debian

ARM64_MAGIC = b"ARM\x64"  # arm64 Image header, at 0x38
ZIMAGE_MAGIC = 0x016F2818  # ARM zImage, at 0x24
XEN_PVH_ENTRY = 18  # XEN_ELFNOTE_PHYS32_ENTRY: the vmlinux can be entered in 32-bit protected mode
IKCONFIG = re.compile(rb"IKCFG_ST(\x1f\x8b)")  # CONFIG_IKCONFIG keeps the gzipped .config between markers
KEEP_BOOT = re.compile(r"^boot/(vmlinu[xz]|config)-")


def cache_root() -> Path:
    """$XDG_CACHE_HOME/portkit, else ~/.cache/portkit (a relative XDG_CACHE_HOME is ignored, as the spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "portkit"


@dataclass(frozen=True)
class Kernel:
    arch: Arch  # what the kernel runs as (uname -m's family)
    image: Path  # what qemu is given with -kernel
    config: Path | None  # its .config, where one was found
    release: str | None  # uname -r, where the package or file name says it
    source: str  # for messages and documents: the package and version, or the path
    package: str | None = None
    version: str | None = None

    def setting(self, name: str) -> bool:
        """Whether the config sets NAME=y (False without a config)."""
        if self.config is None:
            return False
        return f"\n{name}=y\n" in "\n" + self.config.read_text(errors="replace")


def resolve(what: str, spec: str, status: StatusLine | None = None) -> Kernel:
    """The kernel `vm:WHAT` names, fetched and prepared for booting."""
    path = Path(what)
    if what.endswith(".deb") or "/" in what or path.exists():
        if not path.exists():
            raise BadInput(f"--target {spec}: {what} does not exist")
        if path.is_dir():
            raise BadInput(f"--target {spec}: {what} is a directory, not a kernel image or .deb")
        if what.endswith(".deb"):
            return _from_deb(path, spec, status)
        return _from_image(path, spec)
    name, _, arch = what.partition(":")
    if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", name):
        raise BadInput(f"--target {spec}: expected vm:PACKAGE[:ARCH] (a Debian kernel package) or vm:PATH")
    package = debian.lookup(name, arch or None, spec, memo=_memo())
    final = cache_root() / "vm" / "kernels" / package.key
    if not final.is_dir() and status is not None:
        status.show(f"fetching {package.name} {package.version} ({package.arch}, apt-get download)", now=True)
    unpacked = debian.fetch_into(package, lambda p: bool(KEEP_BOOT.match(str(p))), final)
    return _from_boot(unpacked, package, spec)


def _from_deb(deb: Path, spec: str, status: StatusLine | None) -> Kernel:
    package = debian.deb_fields(deb)
    final = cache_root() / "vm" / "kernels" / package.key
    if not final.is_dir():
        if status is not None:
            status.show(f"reading {deb.name}", now=True)
        final.parent.mkdir(parents=True, exist_ok=True)
        scratch = final.with_name(f".{final.name}.{os.getpid()}")
        debian.extract(deb, lambda p: bool(KEEP_BOOT.match(str(p))), scratch)
        try:
            scratch.rename(final)
        except OSError:
            if not final.is_dir():
                raise
    return _from_boot(final, package, spec)


def _from_boot(unpacked: Path, package: debian.Package, spec: str) -> Kernel:
    images = sorted((unpacked / "boot").glob("vmlinu[xz]-*"))
    if not images:
        raise BadInput(f"--target {spec}: {package.name} {package.version} holds no /boot/vmlinuz: not a kernel image")
    image = images[0]
    release = image.name.split("-", 1)[1]
    config = unpacked / "boot" / f"config-{release}"
    arch = image_arch(image, spec)
    return Kernel(
        arch,
        bootable(image, arch),
        config if config.is_file() else None,
        release,
        f"{package.name} {package.version} ({package.arch})",
        package.name,
        package.version,
    )


def _from_image(path: Path, spec: str) -> Kernel:
    arch = image_arch(path, spec)
    release = path.name.split("-", 1)[1] if re.match(r"^vmlinu[xz]-", path.name) else None
    return Kernel(arch, bootable(path, arch), config_beside(path, release), release, str(path))


def config_beside(image: Path, release: str | None) -> Path | None:
    """A kernel's config where a kernel's files are kept: /boot's config-RELEASE
    beside vmlinuz-RELEASE, a build tree's .config (arch/*/boot/Image, or
    vmlinux at its top), else the one built into the image (CONFIG_IKCONFIG)."""
    candidates = [image.parent / f"config-{release}"] if release else []
    if image.parent.name == "boot" and len(image.parents) > 3 and image.parents[2].name == "arch":
        candidates.append(image.parents[3] / ".config")
    candidates.append(image.parent / ".config")
    found = next((path for path in candidates if path.is_file()), None)
    return found or _embedded_config(image)


def _embedded_config(image: Path) -> Path | None:
    data = _payload(image)
    match = IKCONFIG.search(data)
    if match is None:
        return None
    try:
        text = zlib.decompressobj(wbits=31).decompress(data[match.start(1) :])
    except zlib.error:
        return None
    out = _derived(image, "config")
    _write_once(out, text)
    return out


def image_arch(path: Path, spec: str) -> Arch:
    """The architecture of a kernel image, from its header."""
    try:
        with open(path, "rb") as f:
            head = f.read(0x400)
    except OSError as err:
        raise BadInput(f"--target {spec}: {path}: {err.strerror}") from None
    if head[:2] == b"\x1f\x8b":  # Image.gz
        try:
            with gzip.open(path) as unpacked:
                head = unpacked.read(0x400)
        except (OSError, EOFError, zlib.error):  # gzip.open raises zlib's own error on a damaged stream
            head = b""
    name = None
    if head[0x38:0x3C] == ARM64_MAGIC:
        name = "aarch64"
    elif head[0x202:0x206] == b"HdrS":
        xloadflags = int.from_bytes(head[0x236:0x238], "little")
        name = "x86_64" if xloadflags & 1 else "i686"
    elif int.from_bytes(head[0x24:0x28], "little") == ZIMAGE_MAGIC:
        name = "arm"
    elif head[:4] == b"\x7fELF":
        elf = arch_of_elf(head)
        name = elf.name if elf is not None else None
    arch = find_arch(name) if name else None
    if arch is None:
        raise BadInput(
            f"--target {spec}: {path} is not a kernel image portkit can boot "
            "(an arm64 Image, x86 bzImage, ARM zImage, ELF vmlinux or a kernel .deb)"
        )
    return arch


def bootable(image: Path, arch: Arch) -> Path:
    """What qemu boots: for an x86 bzImage with a PVH entry, the vmlinux inside
    it (taken out once, cached), else the image itself."""
    if arch.name != "x86_64":
        return image
    data = image.read_bytes()
    if data[0x202:0x206] != b"HdrS":
        return image
    out = _derived(image, "vmlinux", data)
    if out.is_file():
        return out
    vmlinux = _bzimage_payload(data)
    if vmlinux is None or not _has_pvh_entry(vmlinux):
        return image
    _write_once(out, vmlinux)
    return out


def _bzimage_payload(data: bytes) -> bytes | None:
    """The vmlinux inside a bzImage (boot protocol 2.08+), where Python can
    decompress it (gzip, bzip2, LZMA, XZ; not zstd or lz4)."""
    setup_sects = data[0x1F1] or 4
    offset = int.from_bytes(data[0x248:0x24C], "little")
    length = int.from_bytes(data[0x24C:0x250], "little")
    start = (setup_sects + 1) * 512 + offset
    payload = data[start : start + length]
    try:
        if payload[:2] == b"\x1f\x8b":
            out = zlib.decompressobj(wbits=31).decompress(payload)
        elif payload[:6] == b"\xfd7zXZ\x00":
            out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
        elif payload[:3] == b"BZh":
            out = bz2.BZ2Decompressor().decompress(payload)
        elif payload[:3] == b"\x5d\x00\x00":
            out = lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(payload)
        else:
            return None
    except (zlib.error, lzma.LZMAError, OSError, EOFError):
        return None
    return out if out[:4] == b"\x7fELF" else None


def _has_pvh_entry(elf: bytes) -> bool:
    """Whether a 64-bit vmlinux has Xen's PHYS32_ENTRY note (CONFIG_PVH), which qemu enters it by."""
    if elf[4] != 2:
        return False
    phoff = int.from_bytes(elf[32:40], "little")
    phentsize, phnum = int.from_bytes(elf[54:56], "little"), int.from_bytes(elf[56:58], "little")
    for index in range(phnum):
        header = elf[phoff + index * phentsize : phoff + (index + 1) * phentsize]
        if len(header) < 56 or int.from_bytes(header[:4], "little") != 4:  # PT_NOTE
            continue
        offset, size = int.from_bytes(header[8:16], "little"), int.from_bytes(header[32:40], "little")
        if _notes_have(elf[offset : offset + size], b"Xen\0", XEN_PVH_ENTRY):
            return True
    return False


def _notes_have(notes: bytes, name: bytes, kind: int) -> bool:
    at = 0
    while at + 12 <= len(notes):
        namesz, descsz, note = (int.from_bytes(notes[at + i : at + i + 4], "little") for i in (0, 4, 8))
        label = notes[at + 12 : at + 12 + namesz]
        if label == name and note == kind:
            return True
        at += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def _payload(image: Path) -> bytes:
    """The image's bytes, decompressed where it is a bzImage or Image.gz (IKCONFIG is inside)."""
    data = image.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            return zlib.decompressobj(wbits=31).decompress(data)
        except zlib.error:
            return data
    if data[0x202:0x206] == b"HdrS":
        return _bzimage_payload(data) or data
    return data


def _derived(image: Path, kind: str, data: bytes | None = None) -> Path:
    """Where what was taken out of an image is cached, by the image's SHA-256."""
    digest = hashlib.sha256(data if data is not None else image.read_bytes()).hexdigest()[:32]
    return cache_root() / "vm" / "derived" / digest / kind


def _write_once(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    scratch.write_bytes(data)
    os.replace(scratch, path)


def _memo() -> Path:
    return cache_root() / "vm" / "apt-lookups.json"


def busybox(arch: Arch, status: StatusLine | None = None) -> Path:
    """busybox-static's binary for arch (Debian's, fetched once): the VM's shell and tools."""
    root = cache_root() / "vm" / "busybox"
    try:
        package = debian.lookup_exact("busybox-static", arch.debian, memo=_memo())
    except EnvironmentProblem:
        cached = sorted(root.glob(f"busybox-static_*_{arch.debian}/bin/busybox"))
        if cached:  # no apt here, but fetched before
            return cached[-1]
        raise
    final = root / package.key
    if not final.is_dir() and status is not None:
        status.show(f"fetching busybox-static {package.version} ({package.arch}, apt-get download)", now=True)
    path = debian.fetch_into(package, lambda p: p == PurePosixPath("bin/busybox"), final) / "bin" / "busybox"
    if not path.is_file():
        raise EnvironmentProblem(f"busybox-static:{arch.debian} {package.version} holds no bin/busybox")
    return path
