"""What a 64-bit image's kernel must offer its 32-bit programs, per kernel
family: the option that lets it run them at all, and the one that gives
them a vDSO for their time calls (the kernels' own Kconfig files name them).
On arm64 the compat vDSO also needs a 32-bit compiler when the kernel is
built (CROSS_COMPILE_COMPAT, or clang): without one the option silently
stays off and every gettimeofday of a 32-bit program is a system call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from portkit.core.errors import BadInput


@dataclass(frozen=True)
class Needs:
    run: dict[str, str]  # 32-bit ABI -> the option that runs it
    vdso: str | None  # the option for the compat vDSO, where the family has one to switch on
    arch_option: str  # the option a config of this family sets: ARM64, X86_64, ...


NEEDS = {
    "arm64": Needs({"armhf": "COMPAT", "armel": "COMPAT"}, "COMPAT_VDSO", "ARM64"),
    "amd64": Needs({"i386": "IA32_EMULATION", "x32": "X86_X32_ABI"}, None, "X86_64"),
    "mips64el": Needs({"mipsel": "MIPS32_O32", "mipsn32el": "MIPS32_N32"}, None, "64BIT"),
    "mips64": Needs({"mips": "MIPS32_O32"}, None, "64BIT"),
    "ppc64": Needs({"powerpc": "COMPAT"}, None, "PPC64"),
}


def enabled(config: Mapping[str, str], option: str) -> bool:
    return config.get(option) in ("y", "m")


def check_config_family(config: Mapping[str, str], image_abi: str, where: str) -> None:
    """Refuses a configuration of another architecture than the image's, in one line."""
    needs = NEEDS.get(image_abi)
    if needs is not None and not enabled(config, needs.arch_option):
        raise BadInput(f"{where}: not a configuration for {image_abi} (CONFIG_{needs.arch_option} is not set)")
