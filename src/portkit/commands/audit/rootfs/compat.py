"""The image's 32-bit programs on a 64-bit kernel: which there are, which
call the time functions the compat vDSO serves, and what the kernel has of
the options they need (kernel.py's rows, by audit kconfig's engine)."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.audit.kconfig.desired import Runs
from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.kernel import RUN_RULE, VDSO_RULE, kernel_rows, kernel_states

# What 32-bit programs call that the arm64 compat vDSO answers without a system call.
VDSO_CALLS = frozenset(
    {"clock_gettime", "gettimeofday", "time", "clock_getres", "__clock_gettime64", "__gettimeofday64", "__time64",
     "__clock_getres64"}
)  # fmt: skip


@dataclass(frozen=True)
class CompatPrograms:
    programs: dict[str, list[str]]  # option -> the 32-bit programs that need it, sorted
    vdso: str | None  # the option for the compat vDSO, where the kernel has one to switch on
    time_callers: list[str]  # 32-bit programs that call a vDSO function
    states: dict[str, str] | None  # option -> y, m or n as --kconfig has it; None without one

    def state(self, option: str) -> str | None:
        """`y`, `m`, `n` (not set or absent) with a config, None without one."""
        return None if self.states is None else self.states.get(option, "n")


def compat_programs(audit: Audit) -> CompatPrograms | None:
    image_abi = audit.target.abi.name
    rows = kernel_rows(image_abi)
    option_of = {
        abi: row.option for row in rows if row.id == RUN_RULE and isinstance(row.when, Runs) for abi in row.when.abis
    }
    programs: dict[str, list[str]] = {}
    callers = []
    runs = set()
    for path, facts in audit.programs_and_libraries.items():
        abi = audit.abis[path]
        if not facts.is_executable or abi.known is None or abi.known.name not in audit.compat_names:
            continue
        if abi.known.name not in option_of:
            continue
        runs.add(abi.known.name)
        programs.setdefault(option_of[abi.known.name], []).append(path)
        if facts.undefined & VDSO_CALLS:
            callers.append(path)
    if not programs:
        return None
    vdso = next((row.option for row in rows if row.id == VDSO_RULE), None)
    states = kernel_states(audit.kconfig, image_abi, frozenset(runs)) if audit.kconfig is not None else None
    return CompatPrograms(programs, vdso, callers, states)
