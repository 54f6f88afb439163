"""The image's 32-bit programs on a 64-bit kernel: which there are, which
call the time functions the compat vDSO serves, and what the kernel needs."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.kernel import NEEDS, Needs, enabled

# What 32-bit programs call that the arm64 compat vDSO answers without a system call.
VDSO_CALLS = frozenset(
    {"clock_gettime", "gettimeofday", "time", "clock_getres", "__clock_gettime64", "__gettimeofday64", "__time64",
     "__clock_getres64"}
)  # fmt: skip


@dataclass(frozen=True)
class CompatPrograms:
    needs: Needs
    programs: dict[str, list[str]]  # option -> the 32-bit programs that need it, sorted
    time_callers: list[str]  # 32-bit programs that call a vDSO function


def compat_programs(audit: Audit) -> CompatPrograms | None:
    needs = NEEDS.get(audit.target.abi.name)
    if needs is None:
        return None
    programs: dict[str, list[str]] = {}
    callers = []
    for path, facts in audit.programs_and_libraries.items():
        abi = audit.abis[path]
        if not facts.is_executable or abi.known is None or abi.known.name not in needs.run:
            continue
        programs.setdefault(needs.run[abi.known.name], []).append(path)
        if facts.undefined & VDSO_CALLS:
            callers.append(path)
    if not programs:
        return None
    return CompatPrograms(needs, programs, callers)


def kernel_state(audit: Audit, option: str) -> str | None:
    """`y`, `m`, `n` (not set or absent) with a config, None without one."""
    if audit.kconfig is None:
        return None
    return audit.kconfig.get(option, "n") if enabled(audit.kconfig, option) else "n"
