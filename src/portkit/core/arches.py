"""The architectures portkit knows, named once for every command.

An architecture's short name is what the agent reports as "arch" and what
users type (`--target qemu-aarch64`); its triple names the cross toolchain
and the build directory of its agent (build/<triple>/portkit-target).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arch:
    name: str
    triple: str
    data_model: str
    qemu: str  # the qemu-user program that runs it on any other machine


ARCHES: tuple[Arch, ...] = (
    Arch("x86_64", "x86_64-linux-gnu", "LP64", "qemu-x86_64"),
    Arch("i686", "i686-linux-gnu", "ILP32", "qemu-i386"),
    Arch("aarch64", "aarch64-linux-gnu", "LP64", "qemu-aarch64"),
    Arch("arm", "arm-linux-gnueabihf", "ILP32", "qemu-arm"),
    Arch("mips64el", "mips64el-linux-gnuabi64", "LP64", "qemu-mips64el"),
    Arch("mips", "mips-linux-gnu", "ILP32", "qemu-mips"),  # big-endian o32
)

# Names people also use for the same architectures.
ALIASES = {"arm64": "aarch64", "armhf": "arm", "armv7": "arm", "amd64": "x86_64", "x86": "i686", "i386": "i686"}


def find_arch(name: str) -> Arch | None:
    """Looks an architecture up by short name, alias or triple."""
    name = ALIASES.get(name, name)
    for arch in ARCHES:
        if name in (arch.name, arch.triple):
            return arch
    return None


def known_names() -> str:
    return ", ".join(a.name for a in ARCHES)
