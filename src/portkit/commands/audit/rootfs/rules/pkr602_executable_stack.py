"""PKR602: an executable stack (PT_GNU_STACK with PF_X, or none where that means executable)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.elf import ET_REL, PF_X
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR602",
    name="executable-stack",
    severity=Severity.WARNING,
    family="Hardening",
    summary="A program or library whose PT_GNU_STACK asks for an executable stack, or that has no PT_GNU_STACK "
    "on an ABI whose default is an executable stack (all but arm64, RISC-V and LoongArch).",
    why=(
        "An executable stack turns a stack buffer overflow into code execution. A library asking for one "
        "makes the loader turn every thread's stack executable when it is loaded (glibc 2.41 refuses to "
        "dlopen it). It usually comes from one assembly file without a `.note.GNU-stack` section, or from "
        "nested C functions that need trampolines."
    ),
    wrong="$ readelf -lW rootfs/usr/bin/app | grep GNU_STACK\n"
    "  GNU_STACK      0x000000 0x00000000 0x00000000 0x00000 0x00000 RWE 0x10",
    right="$ readelf -lW rootfs/usr/bin/app | grep GNU_STACK\n"
    "  GNU_STACK      0x000000 0x00000000 0x00000000 0x00000 0x00000 RW  0x10",
    fix='Add `.section .note.GNU-stack,"",%progbits` to the assembly files, or link with -Wl,-z,noexecstack '
    "once the code is known not to run on its stack.",
    language="console",
)

# ABIs whose loader and kernel give a file without PT_GNU_STACK a non-executable stack (glibc's stackinfo.h).
NON_EXECUTABLE_BY_DEFAULT = frozenset({"arm64", "arm64be", "riscv64", "loong64"})


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.type == ET_REL:
            continue
        if facts.gnu_stack is not None and facts.gnu_stack & PF_X:
            yield audit.finding(RULE, path, "asks for an executable stack (PT_GNU_STACK is RWE)")
        elif facts.gnu_stack is None and (facts.dynamic or facts.interpreter or facts.is_executable):
            abi = audit.abis[path]
            if abi.known is not None and abi.known.name not in NON_EXECUTABLE_BY_DEFAULT:
                yield audit.finding(RULE, path, f"has no PT_GNU_STACK, so on {abi.known.name} its stack is executable")
