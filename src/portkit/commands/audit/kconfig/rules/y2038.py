"""Y2038: what 32-bit programs need of the kernel to keep working, and to
keep working past 2038-01-19, when a signed 32-bit time_t overflows. Facts
from arch/Kconfig (COMPAT_32BIT_TIME) and the system call tables
(include/uapi/asm-generic/unistd.h)."""

from __future__ import annotations

from portkit.commands.audit.kconfig.desired import OFF, AnyOf, Has, KernelVersion, Y
from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.findings.model import Severity

FAMILY = "Y2038 (y2038)"
# 32-bit programs run here: a 32-bit kernel, or a 64-bit one with compat support.
RUNS_32BIT_PROGRAMS = AnyOf((Has("64BIT", OFF), Has("COMPAT", Y)))

ROWS: tuple[KconfigRule, ...] = (
    KconfigRule(
        id="PKK301",
        name="compat-32bit-time",
        family=FAMILY,
        option="COMPAT_32BIT_TIME",
        desired=Y,
        severity=Severity.WARNING,
        reason="programs built with a 32-bit time_t fail their time system calls without it",
        why=(
            "COMPAT_32BIT_TIME keeps the system calls that take a 32-bit time_t (clock_gettime, futex, "
            "ppoll, ... in their original form) beside the 64-bit ones. Programs built with a 32-bit time_t, "
            "as all were before glibc 2.34 and its _TIME_BITS=64, call them and get ENOSYS without it. Turning "
            "it off on a test system is a way to prove that every program already uses 64-bit time."
        ),
        source="arch/Kconfig (COMPAT_32BIT_TIME help: default !64BIT || COMPAT)",
        fix="Keep CONFIG_COMPAT_32BIT_TIME=y until every 32-bit program is rebuilt with a 64-bit time_t.",
        when=RUNS_32BIT_PROGRAMS,
    ),
    KconfigRule(
        id="PKK302",
        name="time64-syscalls",
        family=FAMILY,
        option="kernel version",
        desired=KernelVersion((5, 1)),
        severity=Severity.WARNING,
        reason="before Linux 5.1 32-bit programs have no system calls with a 64-bit time_t",
        why=(
            "The 64-bit time system calls for 32-bit programs (clock_gettime64, clock_nanosleep_time64, "
            "futex_time64, ppoll_time64 and the others, numbers 403 to 423 on every 32-bit ABI) arrived in "
            "Linux 5.1. On an older kernel even a program built with a 64-bit time_t falls back to the 32-bit "
            "calls, and its times fail after 2038-01-19. The version is read from the config's header."
        ),
        source=(
            "include/uapi/asm-generic/unistd.h (__NR_clock_gettime64 403 to "
            "__NR_sched_rr_get_interval_time64 423, Linux 5.1)"
        ),
        fix="Move the board to Linux 5.1 or later (5.10 or a newer long-term release).",
        when=RUNS_32BIT_PROGRAMS,
    ),
)
