"""The architectures portkit knows: one table, each of their names a column,
for every command (docs/architecture.md).

- name: portkit's short name, what the agent reports as "arch", what users
  type (`--target qemu-aarch64`) and what `portkit layout` shows;
- triple: the GNU triple of the cross toolchain (aarch64-linux-gnu-gcc) and
  the build directory of its agent (build/<triple>/portkit-target);
- debian: Debian's name (dpkg --print-architecture, apt's NAME:ARCH), which
  `portkit audit rootfs` reports;
- multiarch: Debian's multiarch tuple, the /usr/lib/<tuple> of its libraries;
- uname: what `uname -m` says on a kernel of it (none: only a 64-bit
  kernel's compat ABI);
- qemu: the qemu-user program that runs its programs on any other machine
  (none for x32).

ARCHES are the rows portkit builds an agent for (`make cross`, `pip install`);
the others are known to the layout, scan and rootfs checks only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Arch:
    name: str
    triple: str
    debian: str
    multiarch: str
    uname: tuple[str, ...]
    qemu: str
    data_model: str
    elf: tuple[int, int, int]  # its programs' ELF class (32, 64), byte order (1 little, 2 big) and e_machine
    variant: str = ""  # where one machine and class have two ABIs: ARM "hard"/"soft" float, MIPS "o32"/"n32"
    agent: bool = False  # portkit builds an agent for it


# fmt: off
ARCHITECTURES: tuple[Arch, ...] = (
    # name         GNU triple                 Debian       multiarch                  uname -m
    #    qemu-user          model    ELF            variant agent
    Arch("x86_64", "x86_64-linux-gnu", "amd64", "x86_64-linux-gnu", ("x86_64",),
         "qemu-x86_64", "LP64", (64, 1, 62), agent=True),
    Arch("i686", "i686-linux-gnu", "i386", "i386-linux-gnu", ("i686", "i586", "i386"),
         "qemu-i386", "ILP32", (32, 1, 3), agent=True),
    Arch("aarch64", "aarch64-linux-gnu", "arm64", "aarch64-linux-gnu", ("aarch64",),
         "qemu-aarch64", "LP64", (64, 1, 183), agent=True),
    Arch("arm", "arm-linux-gnueabihf", "armhf", "arm-linux-gnueabihf", ("armv7l", "armv8l"),
         "qemu-arm", "ILP32", (32, 1, 40), "hard", agent=True),
    Arch("mips64el", "mips64el-linux-gnuabi64", "mips64el", "mips64el-linux-gnuabi64", ("mips64",),
         "qemu-mips64el", "LP64", (64, 1, 8), agent=True),
    Arch("mips", "mips-linux-gnu", "mips", "mips-linux-gnu", ("mips",),  # big-endian o32
         "qemu-mips", "ILP32", (32, 2, 8), "o32", agent=True),
    # not a Debian architecture: "arm64be" is the name audit rootfs gives it
    Arch("aarch64_be", "aarch64_be-linux-gnu", "arm64be", "aarch64_be-linux-gnu", ("aarch64_be",),
         "qemu-aarch64_be", "LP64", (64, 2, 183)),
    Arch("armel", "arm-linux-gnueabi", "armel", "arm-linux-gnueabi", ("armv5tel",),
         "qemu-arm", "ILP32", (32, 1, 40), "soft"),
    Arch("x32", "x86_64-linux-gnux32", "x32", "x86_64-linux-gnux32", (),  # qemu-user has no x32
         "", "ILP32", (32, 1, 62)),
    Arch("mipsn32el", "mips64el-linux-gnuabin32", "mipsn32el", "mips64el-linux-gnuabin32", (),
         "qemu-mipsn32el", "ILP32", (32, 1, 8), "n32"),
    Arch("mipsel", "mipsel-linux-gnu", "mipsel", "mipsel-linux-gnu", ("mips",),
         "qemu-mipsel", "ILP32", (32, 1, 8), "o32"),
    Arch("mips64", "mips64-linux-gnuabi64", "mips64", "mips64-linux-gnuabi64", ("mips64",),
         "qemu-mips64", "LP64", (64, 2, 8)),
    Arch("riscv64", "riscv64-linux-gnu", "riscv64", "riscv64-linux-gnu", ("riscv64",),
         "qemu-riscv64", "LP64", (64, 1, 243)),
    Arch("powerpc64le", "powerpc64le-linux-gnu", "ppc64el", "powerpc64le-linux-gnu", ("ppc64le",),
         "qemu-ppc64le", "LP64", (64, 1, 21)),
    Arch("powerpc64", "powerpc64-linux-gnu", "ppc64", "powerpc64-linux-gnu", ("ppc64",),
         "qemu-ppc64", "LP64", (64, 2, 21)),
    Arch("powerpc", "powerpc-linux-gnu", "powerpc", "powerpc-linux-gnu", ("ppc",),
         "qemu-ppc", "ILP32", (32, 2, 20)),
    Arch("s390x", "s390x-linux-gnu", "s390x", "s390x-linux-gnu", ("s390x",),
         "qemu-s390x", "LP64", (64, 2, 22)),
    Arch("loongarch64", "loongarch64-linux-gnu", "loong64", "loongarch64-linux-gnu", ("loongarch64",),
         "qemu-loongarch64", "LP64", (64, 1, 258)),
)
# fmt: on
ARCHES: tuple[Arch, ...] = tuple(arch for arch in ARCHITECTURES if arch.agent)

# Names people also use for the same architectures.
ALIASES = {"arm64": "aarch64", "armhf": "arm", "armv7": "arm", "amd64": "x86_64", "x86": "i686", "i386": "i686"}


def architecture(name: str) -> Arch:
    """A row of the table by portkit's name or Debian's (for the tables built on it)."""
    return next(arch for arch in ARCHITECTURES if name in (arch.name, arch.debian))


def cross_triples() -> list[str]:
    """The GNU triples of the agents `make cross` builds: every agent but x86_64's (the host's own)."""
    return [arch.triple for arch in ARCHES if arch.name != "x86_64"]


def arch_of_uname(machine: str, byteorder: str = sys.byteorder) -> Arch | None:
    """The agent architecture of a kernel that says `uname -m` = machine, on
    a machine of that byte order (mips and mips64 name both orders)."""
    order = 1 if byteorder == "little" else 2
    return next((a for a in ARCHES if machine in a.uname and a.elf[1] == order), None)


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
    20: "PowerPC",
    21: "PowerPC64",
    22: "S/390",
    40: "ARM",
    62: "x86-64",
    183: "AArch64",
    243: "RISC-V",
    247: "BPF",
    258: "LoongArch",
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


if __name__ == "__main__":  # the Makefile's cross agents: python3 src/portkit/core/arches.py
    print(*cross_triples())
