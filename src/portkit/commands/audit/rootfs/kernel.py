"""What a 64-bit image's kernel must offer its 32-bit programs, as rows of
audit kconfig's engine (kconfig/engine.py), each applying when the image has
programs of its ABIs: the option that lets the kernel run them at all
(PKR501), and the one that gives them a vDSO for their time calls (PKR502).
The kernels' own Kconfig files name them. On arm64 the compat vDSO also
needs a 32-bit compiler when the kernel is built (CROSS_COMPILE_COMPAT, or
clang): without one the option silently stays off and every gettimeofday of
a 32-bit program is a system call.

Without --kconfig the rows only say what is needed; with it, the engine
reads the option as audit kconfig does, and the rules word the result."""

from __future__ import annotations

from portkit.commands.audit.kconfig.arch import ConfigArch
from portkit.commands.audit.kconfig.desired import ENABLED, Has, Runs
from portkit.commands.audit.kconfig.engine import evaluate
from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.commands.audit.kconfig.reader import KernelConfig
from portkit.core.errors import BadInput
from portkit.findings.model import Severity

RUN_RULE, VDSO_RULE = "PKR501", "PKR502"
# A 64-bit image's kernel: audit kconfig's name for its architecture, and the
# option every config of it sets (a config without it is another architecture's).
KERNELS = {
    "arm64": ("arm64", "ARM64"),
    "amd64": ("x86_64", "X86_64"),
    "mips64el": ("mips", "64BIT"),
    "mips64": ("mips", "64BIT"),
    "ppc64": ("powerpc", "PPC64"),
}


def _row(rule: str, option: str, arch: str, abis: tuple[str, ...], source: str, reason: str) -> KconfigRule:
    run = rule == RUN_RULE
    return KconfigRule(
        id=rule,
        name="compat-kernel" if run else "compat-vdso",
        family="Kernel",
        option=option,
        desired=ENABLED,
        severity=Severity.ERROR if run else Severity.WARNING,  # with --kconfig, when it is off
        reason=reason,
        why=reason,
        source=source,
        fix=f"Set CONFIG_{option}=y.",
        arches=(arch,),
        when=Runs(abis),
    )


ROWS: tuple[KconfigRule, ...] = (
    _row(RUN_RULE, "COMPAT", "arm64", ("armhf", "armel"), "arch/arm64/Kconfig (COMPAT)",
         "an arm64 kernel runs AArch32 programs only with COMPAT"),
    _row(RUN_RULE, "IA32_EMULATION", "x86_64", ("i386",), "arch/x86/Kconfig (IA32_EMULATION)",
         "an x86-64 kernel runs i386 programs only with IA32_EMULATION"),
    _row(RUN_RULE, "X86_X32_ABI", "x86_64", ("x32",), "arch/x86/Kconfig (X86_X32_ABI)",
         "an x86-64 kernel runs x32 programs only with X86_X32_ABI"),
    _row(RUN_RULE, "MIPS32_O32", "mips", ("mipsel", "mips"), "arch/mips/Kconfig (MIPS32_O32)",
         "a 64-bit MIPS kernel runs o32 programs only with MIPS32_O32"),
    _row(RUN_RULE, "MIPS32_N32", "mips", ("mipsn32el",), "arch/mips/Kconfig (MIPS32_N32)",
         "a 64-bit MIPS kernel runs n32 programs only with MIPS32_N32"),
    _row(RUN_RULE, "COMPAT", "powerpc", ("powerpc",), "arch/powerpc/Kconfig (COMPAT)",
         "a 64-bit PowerPC kernel runs 32-bit programs only with COMPAT"),
    _row(VDSO_RULE, "COMPAT_VDSO", "arm64", ("armhf", "armel"), "arch/arm64/Kconfig (COMPAT_VDSO)",
         "without COMPAT_VDSO every time call of a 32-bit program is a system call"),
)  # fmt: skip


def kernel_rows(image_abi: str) -> list[KconfigRule]:
    """The rows for the kernel of an image of this ABI (none: not a 64-bit kernel that runs 32-bit ABIs)."""
    kernel = KERNELS.get(image_abi)
    return [row for row in ROWS if kernel is not None and kernel[0] in row.arches]


def kernel_states(config: KernelConfig, image_abi: str, runs: frozenset[str]) -> dict[str, str]:
    """Each needed option as the config has it: `y`, `m`, or `n` (not set or
    absent), by audit kconfig's engine; the rows for programs the image does
    not have are left out."""
    arch = ConfigArch(KERNELS[image_abi][0], None, 0, None)  # check_config_family made sure of it
    checks = evaluate(config, arch, kernel_rows(image_abi), runs)
    return {c.row.option: c.actual if c.status == "ok" else "n" for c in checks if c.status != "skip"}


def check_config_family(config: KernelConfig, image_abi: str, where: str) -> None:
    """Refuses a configuration of another architecture than the image's, in one line."""
    kernel = KERNELS.get(image_abi)
    if kernel is not None and not Has(kernel[1], ENABLED).holds(config):
        raise BadInput(f"{where}: not a configuration for {image_abi} (CONFIG_{kernel[1]} is not set)")
