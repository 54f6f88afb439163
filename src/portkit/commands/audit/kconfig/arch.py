"""Which architecture a kernel config is for, from the symbol each arch/*/Kconfig
defines as `def_bool y` (CONFIG_ARM64, CONFIG_ARM, CONFIG_X86_64, ...) and
from the header's `Linux/ARCH`. No symbol, two of them, or a header that
disagrees is a problem line; the rules made for one architecture are then
skipped rather than guessed."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.audit.kconfig.reader import KernelConfig

# symbol -> the name rules use (Linux's ARCH= spelling, x86 split by width).
# X86 itself is set on both x86 widths; X86_64 / X86_32 tell them apart.
ARCH_SYMBOLS: dict[str, str] = {
    "ARM64": "arm64",
    "ARM": "arm",
    "X86_64": "x86_64",
    "X86_32": "x86",
    "MIPS": "mips",
    "RISCV": "riscv",
    "PPC": "powerpc",
    "LOONGARCH": "loongarch",
    "S390": "s390",
    "SPARC": "sparc",
    "PARISC": "parisc",
    "ALPHA": "alpha",
    "M68K": "m68k",
    "SUPERH": "sh",
    "MICROBLAZE": "microblaze",
    "XTENSA": "xtensa",
    "OPENRISC": "openrisc",
    "NIOS2": "nios2",
    "ARC": "arc",
    "CSKY": "csky",
    "HEXAGON": "hexagon",
    "IA64": "ia64",
    "UML": "um",
}
# The header's ARCH= names that mean the same architecture as a symbol above.
_HEADER_NAMES = {"x86": {"x86_64", "x86"}, "i386": {"x86"}, "x86_64": {"x86_64"}, "sh": {"sh"}, "um": {"um"}}


@dataclass(frozen=True)
class ConfigArch:
    name: str | None  # None: unknown or contradictory
    symbol: str | None  # the CONFIG_ symbol it was read from
    line: int  # that symbol's line, 0 when none
    bits: int | None  # 64 with CONFIG_64BIT=y, 32 when it is off, None when the arch has no such choice recorded


def detect_arch(config: KernelConfig) -> ConfigArch:
    """The architecture, with a problem line added to the config when it cannot be told."""
    found = [(symbol, name) for symbol, name in ARCH_SYMBOLS.items() if _is_y(config, symbol)]
    bits = _bits(config)
    if not found:
        config.problems.append(
            f"{config.path}: no architecture symbol (CONFIG_ARM64, CONFIG_ARM, CONFIG_X86_64, ...): "
            "the rules for one architecture are skipped"
        )
        return ConfigArch(None, None, 0, bits)
    if len(found) > 1:
        named = ", ".join(f"CONFIG_{symbol} (line {config.settings[symbol].line})" for symbol, _ in found)
        config.problems.append(
            f"{config.path}: more than one architecture: {named}; the rules for one architecture are skipped"
        )
        return ConfigArch(None, None, 0, bits)
    symbol, name = found[0]
    header = config.header
    if header is not None and header.arch is not None and name not in _HEADER_NAMES.get(header.arch, {header.arch}):
        config.problems.append(
            f"{config.path}:{header.line}: the header names Linux/{header.arch} but CONFIG_{symbol} "
            f"(line {config.settings[symbol].line}) is {name}; the rules for one architecture are skipped"
        )
        return ConfigArch(None, None, 0, bits)
    return ConfigArch(name, symbol, config.settings[symbol].line, bits)


def _is_y(config: KernelConfig, name: str) -> bool:
    setting = config.get(name)
    return setting is not None and setting.value == "y"


def _bits(config: KernelConfig) -> int | None:
    setting = config.get("64BIT")
    if setting is None:
        # arm and 32-bit-only architectures do not have the symbol at all.
        return 32 if _is_y(config, "ARM") or _is_y(config, "X86_32") else None
    return 64 if setting.value == "y" else 32
