"""PKR305: a shared library in a libdir that is not its ABI's, or that its loader never searches."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.missing import libdir_for
from portkit.commands.audit.rootfs.rpaths import rpath_entries
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR305",
    name="wrong-libdir",
    severity=Severity.WARNING,
    family="Search paths",
    summary="A shared library in a lib, lib64, lib32, libx32 or multiarch directory that belongs to another ABI, "
    "or that its ABI's loader does not search (no system directory, ld.so.conf entry or RPATH names it).",
    why=(
        "Build systems guess the libdir: an autotools or CMake package built for arm64 without an explicit "
        "--libdir often installs to /usr/lib64, which an arm64 loader on Debian, Yocto or Buildroot never "
        "searches. Nothing fails at build time; the program that needs the library fails on the board. A "
        "library of another ABI in a multiarch directory (aarch64 code in /usr/lib/arm-linux-gnueabihf) is "
        "the same mistake the other way round."
    ),
    wrong="$ find rootfs -name 'libfoo.so*'\nrootfs/usr/lib64/libfoo.so.1\n"
    "# an arm64 image; its loader searches /lib/aarch64-linux-gnu, /usr/lib/aarch64-linux-gnu, /lib, /usr/lib",
    right="$ find rootfs -name 'libfoo.so*'\nrootfs/usr/lib/libfoo.so.1",
    fix="Configure the package with the image's libdir (--libdir=/usr/lib, -DCMAKE_INSTALL_LIBDIR=lib, or the "
    "multiarch directory), or add the directory to /etc/ld.so.conf.d/ if it is meant to be searched.",
    language="console",
)

_LIBDIR = re.compile(
    r"(?:usr/(?:local/)?)?(?P<base>lib|lib64|lib32|libx32)(?:/(?P<triple>[a-z0-9_]+-linux-[a-z0-9_]+))?"
)
# Debian once named i386's triple after i486/i686; either is i386's directory.
_SAME_TRIPLE = {"i686-linux-gnu": "i386-linux-gnu", "i486-linux-gnu": "i386-linux-gnu"}


def check(audit: Audit) -> Iterator[Finding]:
    named = {audit.image.resolve(e.directory).path for e in rpath_entries(audit) if e.directory}
    for path in audit.programs_and_libraries:
        if not audit.is_library(path):
            continue
        directory = posixpath.dirname(path)
        libdir = _LIBDIR.fullmatch(directory)
        if libdir is None:
            continue
        abi = audit.abis[path]
        facts = audit.image.elves[path]
        triple = libdir.group("triple")
        if triple and abi.known and _SAME_TRIPLE.get(triple, triple) != abi.known.triple:
            yield audit.finding(RULE, path, f"a library for {abi.label} in {directory}, the directory of {triple}")
            continue
        base = libdir.group("base")
        if (base == "lib64" and facts.elf_class == 32) or (base == "lib32" and facts.elf_class == 64):
            yield audit.finding(RULE, path, f"a {facts.elf_class}-bit library in {directory}")
            continue
        loader = audit.model.loader_for(abi, None)
        searched = [*loader.system_dirs, *loader.conf_dirs]
        real = {audit.image.resolve(d).path for d in searched} | named
        if directory not in real:
            libdir = libdir_for(audit, abi, loader)
            yield audit.finding(
                RULE, path, f"{directory} is not searched by the {abi.name} loader (it searches "
                f"{listed(list(dict.fromkeys(searched)), 6)}), and no RPATH or RUNPATH names it",
                fix=f"Configure the package with the image's libdir for {abi.name} (--libdir={libdir}, "
                f"-DCMAKE_INSTALL_LIBDIR={libdir.removeprefix('/usr/')}), or add /{directory} to /etc/ld.so.conf.d/ "
                "if it is meant to be searched.",
            )  # fmt: skip
