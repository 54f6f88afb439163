"""PKR605: a program that is not position-independent (ET_EXEC)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.elf import ET_EXEC
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR605",
    name="not-pie",
    severity=Severity.NOTE,
    family="Hardening",
    summary="A program linked at a fixed address (ELF type EXEC) rather than as a position-independent executable.",
    why=(
        "The kernel cannot place it at a random address, so its code and data are where an attacker expects "
        "them (ASLR covers only its libraries and stack). Most distributions build PIE by default; a "
        "non-PIE program was linked with -no-pie, -static without -static-pie, or by an old toolchain."
    ),
    wrong="$ readelf -h rootfs/usr/bin/app | grep Type\n  Type:                              EXEC (Executable file)",
    right="$ readelf -h rootfs/usr/bin/app | grep Type\n  Type:                              DYN (Position-Independent "
    "Executable file)",
    fix="Compile with -fPIE and link with -pie (or -static-pie for a static program).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.type == ET_EXEC:
            if facts.dynamic:
                linked = "dynamically linked"
            elif facts.interpreter:  # klibc's shared programs: the kernel maps the library as their interpreter
                linked = f"statically linked against {facts.interpreter}, its interpreter"
            else:
                linked = "statically linked"
            yield audit.finding(RULE, path, f"is not position-independent (ET_EXEC, {linked})")
