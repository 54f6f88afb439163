"""The ABIs a Linux image's ELF files are built for, told apart as the
loaders tell them apart: machine, class and byte order, and where one
machine has two incompatible ABIs, e_flags (ARM hard/soft float, MIPS
o32/n32). Each known ABI is a Debian architecture of the one table
(core.arches: its name, multiarch triple, ELF identity) with, here, the
interpreter paths of glibc and musl (the psABIs' and musl's names), the
kernel family that runs it, and whether its glibc ABI has a 32-bit time_t."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.audit.rootfs.elf import ElfFacts
from portkit.core.arches import ARCHITECTURES, EM_NAMES, architecture
from portkit.core.errors import BadInput

EM_386, EM_MIPS, EM_PPC, EM_PPC64, EM_S390, EM_ARM = 3, 8, 20, 21, 22, 40
EM_X86_64, EM_AARCH64, EM_RISCV, EM_BPF, EM_LOONGARCH = 62, 183, 243, 247, 258
EF_ARM_ABI_FLOAT_SOFT, EF_ARM_ABI_FLOAT_HARD = 0x200, 0x400
EF_MIPS_ABI2 = 0x20  # n32


@dataclass(frozen=True)
class Abi:
    name: str  # Debian's architecture name where it has one: arm64, armhf, amd64, ...
    machine: int
    elf_class: int
    little_endian: bool
    triple: str  # the multiarch triple: /lib/<triple>, /usr/lib/<triple>
    glibc_interpreter: str
    musl_interpreter: str
    family: str  # the processor family: a kernel module of the family suits any of its ABIs
    time32: bool  # glibc's default time_t is 32 bits (Y2038)
    lib64: bool  # upstream glibc's own libdir is lib64 (when the image's loader cannot be read)
    float_abi: str = ""  # ARM: "hard" or "soft"; MIPS: "o32" or "n32"

    @property
    def label(self) -> str:
        """`arm64 (AArch64, 64-bit, little-endian)`."""
        order = "little" if self.little_endian else "big"
        variant = {"hard": ", hard-float", "soft": ", soft-float", "o32": ", o32", "n32": ", n32"}[
            self.float_abi or "hard"
        ]
        variant = variant if self.float_abi else ""
        machine = EM_NAMES.get(self.machine, self.machine)
        return f"{self.name} ({machine}, {self.elf_class}-bit, {order}-endian{variant})"


def _abi(debian: str, glibc: str, musl: str, family: str, *, time32: bool = False, lib64: bool = False) -> Abi:
    """The ABI of Debian's architecture `debian`: its names, ELF identity and
    variant from the one table (core.arches), its loaders and family here."""
    arch = architecture(debian)
    bits, order, machine = arch.elf
    return Abi(arch.debian, machine, bits, order == 1, arch.multiarch, glibc, musl, family, time32, lib64, arch.variant)


ABIS: tuple[Abi, ...] = (
    _abi("arm64", "/lib/ld-linux-aarch64.so.1", "/lib/ld-musl-aarch64.so.1", "arm"),
    _abi("arm64be", "/lib/ld-linux-aarch64_be.so.1", "/lib/ld-musl-aarch64_be.so.1", "arm"),
    _abi("armhf", "/lib/ld-linux-armhf.so.3", "/lib/ld-musl-armhf.so.1", "arm", time32=True),
    _abi("armel", "/lib/ld-linux.so.3", "/lib/ld-musl-arm.so.1", "arm", time32=True),
    _abi("amd64", "/lib64/ld-linux-x86-64.so.2", "/lib/ld-musl-x86_64.so.1", "x86", lib64=True),
    _abi("x32", "/libx32/ld-linux-x32.so.2", "/lib/ld-musl-x32.so.1", "x86"),
    _abi("i386", "/lib/ld-linux.so.2", "/lib/ld-musl-i386.so.1", "x86", time32=True),
    _abi("mips64el", "/lib64/ld.so.1", "/lib/ld-musl-mips64el.so.1", "mips", lib64=True),
    _abi("mips64", "/lib64/ld.so.1", "/lib/ld-musl-mips64.so.1", "mips", lib64=True),
    _abi("mipsn32el", "/lib32/ld.so.1", "/lib/ld-musl-mipsn32el.so.1", "mips", time32=True),
    _abi("mipsel", "/lib/ld.so.1", "/lib/ld-musl-mipsel.so.1", "mips", time32=True),
    _abi("mips", "/lib/ld.so.1", "/lib/ld-musl-mips.so.1", "mips", time32=True),
    _abi("riscv64", "/lib/ld-linux-riscv64-lp64d.so.1", "/lib/ld-musl-riscv64.so.1", "riscv"),
    _abi("ppc64el", "/lib64/ld64.so.2", "/lib/ld-musl-powerpc64le.so.1", "powerpc", lib64=True),
    _abi("ppc64", "/lib64/ld64.so.1", "/lib/ld-musl-powerpc64.so.1", "powerpc", lib64=True),
    _abi("powerpc", "/lib/ld.so.1", "/lib/ld-musl-powerpc.so.1", "powerpc", time32=True),
    _abi("s390x", "/lib/ld64.so.1", "/lib/ld-musl-s390x.so.1", "s390", lib64=True),
    _abi("loong64", "/lib64/ld-linux-loongarch-lp64d.so.1", "/lib/ld-musl-loongarch64.so.1", "loongarch", lib64=True),
)

ALIASES = {
    "aarch64": "arm64",
    "arm": "armhf",
    "armv7": "armhf",
    "x86_64": "amd64",
    "x86-64": "amd64",
    "i686": "i386",
    "x86": "i386",
    "ppc64le": "ppc64el",
    "loongarch64": "loong64",
}
# The 32-bit ABIs a 64-bit image's kernel may also run (kernel.py: the options that let it).
COMPAT_ABIS = {
    "arm64": ("armhf", "armel"),
    "amd64": ("i386", "x32"),
    "mips64el": ("mipsel", "mipsn32el"),
    "mips64": ("mips",),
    "ppc64": ("powerpc",),
}
# Every multiarch tuple and toolchain triple, which name a directory of another ABI's files.
TRIPLES = frozenset(a.multiarch for a in ARCHITECTURES) | frozenset(a.triple for a in ARCHITECTURES)


def find_abi(name: str) -> Abi:
    """An ABI by Debian name, alias or multiarch triple (--arch)."""
    key = ALIASES.get(name, name)
    for abi in ABIS:
        if key in (abi.name, abi.triple):
            return abi
    raise BadInput(f"--arch {name}: unknown (known: {', '.join(a.name for a in ABIS)}, or their triples)")


@dataclass(frozen=True)
class FileAbi:
    """An ELF file's ABI: a known one, or its raw identity when none matches."""

    machine: int
    elf_class: int
    little_endian: bool
    variant: str  # as Abi.float_abi, "" where the machine has one ABI per class
    known: Abi | None

    @property
    def label(self) -> str:
        if self.known is not None:
            return self.known.label
        order = "little" if self.little_endian else "big"
        machine = EM_NAMES.get(self.machine, f"machine {self.machine}")
        return f"{machine}, {self.elf_class}-bit, {order}-endian"

    @property
    def name(self) -> str:
        return self.known.name if self.known else self.label

    def loads(self, other: FileAbi) -> bool:
        """Whether a loader of this ABI accepts a library of `other`: same
        machine, class and byte order, and on ARM and MIPS the same float or
        calling ABI (glibc rejects a soft-float library in a hard-float process)."""
        return (self.machine, self.elf_class, self.little_endian, self.variant) == (
            other.machine,
            other.elf_class,
            other.little_endian,
            other.variant,
        )


def abi_of(facts: ElfFacts) -> FileAbi:
    variant = ""
    if facts.machine == EM_ARM and facts.elf_class == 32:
        # EABI5 says hard or soft; an object that says neither (old EABI, or no
        # floating point) goes with either in glibc, and counts as hard here.
        variant = "soft" if facts.flags & EF_ARM_ABI_FLOAT_SOFT and not facts.flags & EF_ARM_ABI_FLOAT_HARD else "hard"
    elif facts.machine == EM_MIPS and facts.elf_class == 32:
        variant = "n32" if facts.flags & EF_MIPS_ABI2 else "o32"
    for abi in ABIS:
        if (abi.machine, abi.elf_class, abi.little_endian, abi.float_abi) == (
            facts.machine,
            facts.elf_class,
            facts.little_endian,
            variant,
        ):
            return FileAbi(facts.machine, facts.elf_class, facts.little_endian, variant, abi)
    return FileAbi(facts.machine, facts.elf_class, facts.little_endian, variant, None)


def file_abi(abi: Abi) -> FileAbi:
    return FileAbi(abi.machine, abi.elf_class, abi.little_endian, abi.float_abi, abi)


def interpreter_owners(path: str) -> list[Abi]:
    """The ABIs whose glibc or musl interpreter this path is (/lib/ld.so.1 serves three)."""
    return [abi for abi in ABIS if path in (abi.glibc_interpreter, abi.musl_interpreter)]
