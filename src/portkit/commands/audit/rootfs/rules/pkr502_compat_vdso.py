"""PKR502: 32-bit programs that read the time need the compat vDSO on arm64."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.compat import compat_programs
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR502",
    name="compat-vdso",
    severity=Severity.NOTE,
    family="Kernel",
    summary="32-bit programs on an arm64 image that call clock_gettime, gettimeofday or time: the kernel needs "
    "CONFIG_COMPAT_VDSO, or each call is a system call. With --kconfig, a warning when it is not set.",
    why=(
        "arm64 builds its 32-bit vDSO with a second, 32-bit compiler (CROSS_COMPILE_COMPAT) or with clang; "
        "when neither is given, CONFIG_COMPAT_VDSO silently stays off. 32-bit programs still run, but every "
        "time call enters the kernel, about ten times slower (`portkit vdso bench` measures it), which "
        "real-time and logging code feels. Yocto, Buildroot and PTXdist do not set CROSS_COMPILE_COMPAT."
    ),
    wrong="$ grep COMPAT_VDSO .config\n# CONFIG_COMPAT_VDSO is not set",
    right="$ make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- "
    "olddefconfig\n$ grep COMPAT_VDSO .config\nCONFIG_COMPAT_VDSO=y",
    fix="Build the kernel with CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- (or LLVM=1), so that "
    "CONFIG_COMPAT_VDSO=y; check the result with `portkit vdso --target` on the board.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    found = compat_programs(audit)
    if found is None or found.vdso is None or not found.time_callers:
        return
    option, callers = found.vdso, found.time_callers
    plural = len(callers) > 1
    programs = f"{len(callers)} 32-bit program{'s' if plural else ''} ({listed(callers, 3)})"
    count = f"{programs} read{'' if plural else 's'} the time"
    state = found.state(option)
    if state is None:
        yield audit.finding(RULE, callers[0], f"{count}: without CONFIG_{option} each call is a system call")
    elif state == "n":
        why = " (CONFIG_COMPAT is off too)" if found.state("COMPAT") == "n" else ""
        yield audit.finding(
            RULE, callers[0], f"{count}, but {audit.kconfig_path} does not set CONFIG_{option}{why}: "
            "each call is a system call", severity=Severity.WARNING,
        )  # fmt: skip
