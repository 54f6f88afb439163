"""PKR501: 32-bit programs in a 64-bit image need the kernel's 32-bit support."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.compat import compat_programs
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR501",
    name="compat-kernel",
    severity=Severity.NOTE,
    family="Kernel",
    summary="32-bit programs in a 64-bit image: the kernel must be built to run them (arm64: CONFIG_COMPAT; "
    "x86-64: CONFIG_IA32_EMULATION; mips64: CONFIG_MIPS32_O32/N32). With --kconfig, an error when it is not.",
    why=(
        "A 64-bit kernel runs 32-bit programs only with its compat layer; without it they fail with `Exec "
        "format error` although every file is in place. On arm64 the processor must also implement AArch32 "
        "at EL0, which newer cores (Cortex-A510 little cores, Neoverse V2, Apple's) drop. Without a kernel "
        "configuration portkit only states the need; with --kconfig it checks it."
    ),
    wrong="$ grep -E 'CONFIG_COMPAT\\b|CONFIG_COMPAT=' .config\n# CONFIG_COMPAT is not set\n"
    "# and rootfs/usr/bin/legacy-app is ELF32 ARM",
    right="$ grep 'CONFIG_COMPAT=' .config\nCONFIG_COMPAT=y",
    fix="Enable the option in the kernel configuration (arm64: CONFIG_COMPAT=y, which needs 4K or 16K pages "
    "and AArch32 EL0 support in the cores), or rebuild the programs for the 64-bit ABI.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    found = compat_programs(audit)
    if found is None:
        return
    for option, programs in sorted(found.programs.items()):
        state = found.state(option)
        plural = len(programs) > 1
        count = f"{len(programs)} 32-bit program{'s' if plural else ''} ({listed(programs, 3)})"
        need = "need" if plural else "needs"
        if state is None:
            yield audit.finding(RULE, programs[0], f"{count} {need} a kernel with CONFIG_{option}")
        elif state == "n":
            yield audit.finding(
                RULE, programs[0], f"{count} {need} CONFIG_{option}, which {audit.kconfig_path} does not set",
                severity=Severity.ERROR,
            )  # fmt: skip
