"""The ABIs `portkit layout` compares: the Linux ones are rows of the one
table of architectures (portkit.core.arches: the short name, the GNU triple
of the cross toolchain and its Debian sysroot, the data model and the byte
order), with clang's triple added here; the Windows ones are layout (and
scan) targets only."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace

from portkit.core.arches import ALIASES as ARCH_ALIASES
from portkit.core.arches import architecture
from portkit.core.errors import BadInput


@dataclass(frozen=True)
class Abi:
    name: str  # what the user typed (with any variant flags), shown in tables
    triple: str  # GNU triple: cross toolchain prefix and sysroot /usr/<triple>
    clang_triple: str
    data_model: str
    flags: tuple[str, ...] = field(default=())  # variant flags, e.g. -D_TIME_BITS=64
    # "big": bit-fields fill each byte from its most significant bit (docs/formats.md, bit_offset)
    byte_order: str = "little"


def _linux(short: str, clang_triple: str | None = None) -> Abi:
    """The table's architecture `short`; clang's triple where it is not the GNU one."""
    arch = architecture(short)
    order = "big" if arch.elf[1] == 2 else "little"
    return Abi(arch.name, arch.triple, clang_triple or arch.triple, arch.data_model, byte_order=order)


ABIS: tuple[Abi, ...] = (
    _linux("arm", "armv7a-linux-gnueabihf"),
    _linux("aarch64"),
    _linux("i686"),
    _linux("x86_64"),
    _linux("mips64el"),
    _linux("mipsel"),
    _linux("mips"),  # o32, big-endian
    _linux("powerpc"),
    _linux("powerpc64le"),
    _linux("riscv64"),
    _linux("s390x"),
    Abi("mingw64", "x86_64-w64-mingw32", "x86_64-w64-windows-gnu", "LLP64"),
    Abi("msvc64", "x86_64-windows-msvc", "x86_64-pc-windows-msvc", "LLP64"),
)

ALIASES = {
    **ARCH_ALIASES,
    "mingw": "mingw64",
    "win64": "msvc64",
    "x86_64-pc-windows-msvc": "msvc64",
    # Debian's architecture names
    "ppc64el": "powerpc64le",
    "ppc64le": "powerpc64le",
    "ppc": "powerpc",
}

DEFAULT_ABIS = ("arm", "aarch64")  # the IVI AArch64 porting field report's pair: AArch32 vs AArch64


def known_names() -> str:
    return ", ".join(a.name for a in ABIS)


def parse_abi(spec: str) -> Abi:
    """`NAME` or `NAME:FLAGS` (the same ABI with extra compiler flags)."""
    base, _, flags = spec.partition(":")
    key = ALIASES.get(base.strip(), base.strip())
    for abi in ABIS:
        if key in (abi.name, abi.triple, abi.clang_triple):
            try:
                extra = tuple(shlex.split(flags))
            except ValueError as err:
                raise BadInput(f"--abi {spec!r}: bad flags ({err})") from None
            return replace(abi, name=spec.strip() if flags.strip() else abi.name, flags=extra)
    raise BadInput(f"--abi {spec!r}: unknown ABI (known: {known_names()})")
