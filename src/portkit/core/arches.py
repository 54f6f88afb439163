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
    debian: str  # Debian's name for it (dpkg --print-architecture, apt's NAME:ARCH)
    elf: tuple[int, int, int]  # its programs' ELF class (32, 64), byte order (1 little, 2 big) and e_machine


ARCHES: tuple[Arch, ...] = (
    Arch("x86_64", "x86_64-linux-gnu", "LP64", "qemu-x86_64", "amd64", (64, 1, 62)),
    Arch("i686", "i686-linux-gnu", "ILP32", "qemu-i386", "i386", (32, 1, 3)),
    Arch("aarch64", "aarch64-linux-gnu", "LP64", "qemu-aarch64", "arm64", (64, 1, 183)),
    Arch("arm", "arm-linux-gnueabihf", "ILP32", "qemu-arm", "armhf", (32, 1, 40)),
    Arch("mips64el", "mips64el-linux-gnuabi64", "LP64", "qemu-mips64el", "mips64el", (64, 1, 8)),
    Arch("mips", "mips-linux-gnu", "ILP32", "qemu-mips", "mips", (32, 2, 8)),  # big-endian o32
)

# Names people also use for the same architectures.
ALIASES = {"arm64": "aarch64", "armhf": "arm", "armv7": "arm", "amd64": "x86_64", "x86": "i686", "i386": "i686"}


def find_arch(name: str) -> Arch | None:
    """Looks an architecture up by short name, alias, triple or Debian name."""
    name = ALIASES.get(name, name)
    for arch in ARCHES:
        if name in (arch.name, arch.triple, arch.debian):
            return arch
    return None


def known_names() -> str:
    return ", ".join(a.name for a in ARCHES)


EM_NAMES = {
    3: "i386",
    8: "MIPS",
    40: "ARM",
    62: "x86-64",
    183: "AArch64",
    243: "RISC-V",
    20: "PowerPC",
    21: "PowerPC64",
}
EF_MIPS_ABI2 = 0x20  # n32: a 32-bit ELF class that is not o32


def elf_identity(header: bytes) -> tuple[int, int, int, int] | None:
    """(class 32/64, byte order 1 little/2 big, e_machine, e_flags) from an
    ELF file's first 52 bytes, or None when they are not an ELF header."""
    if len(header) < 20 or header[:4] != b"\x7fELF" or header[4] not in (1, 2) or header[5] not in (1, 2):
        return None
    order = "little" if header[5] == 1 else "big"
    machine = int.from_bytes(header[18:20], order)
    flags_at = 36 if header[4] == 1 else 48
    flags = int.from_bytes(header[flags_at : flags_at + 4], order) if len(header) >= flags_at + 4 else 0
    return (32 if header[4] == 1 else 64, header[5], machine, flags)


def arch_of_elf(header: bytes) -> Arch | None:
    """The architecture whose agent runs beside an ELF program (its class,
    byte order and machine; MIPS n32 has none)."""
    identity = elf_identity(header)
    if identity is None:
        return None
    bits, order, machine, flags = identity
    if machine == 8 and bits == 32 and flags & EF_MIPS_ABI2:
        return None
    return next((arch for arch in ARCHES if arch.elf == (bits, order, machine)), None)


def describe_elf(header: bytes) -> str:
    """`ELF32 little-endian ARM`: what an ELF header says, for messages."""
    identity = elf_identity(header)
    if identity is None:
        return "not an ELF file"
    bits, order, machine, flags = identity
    abi = " n32" if machine == 8 and bits == 32 and flags & EF_MIPS_ABI2 else ""
    name = EM_NAMES.get(machine, f"e_machine {machine}")
    return f"ELF{bits} {'little' if order == 1 else 'big'}-endian {name}{abi}"
