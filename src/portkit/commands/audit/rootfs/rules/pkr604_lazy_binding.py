"""PKR604: a program without BIND_NOW (partial RELRO)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR604",
    name="lazy-binding",
    severity=Severity.NOTE,
    family="Hardening",
    summary="A dynamically linked program (an interpreter and a dynamic section) with RELRO but without BIND_NOW "
    "(DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW): partial RELRO. A static program with an interpreter but no "
    "dynamic section (klibc's) binds nothing.",
    why=(
        "With lazy binding the loader resolves each function on its first call, so the part of the GOT that "
        "holds them must stay writable (checksec: `Partial RELRO`). Binding at start-up makes the whole GOT "
        "read-only and also moves symbol lookup out of the program's first real-time loop, where a lazy "
        "lookup is a latency spike. The program's flag binds every library it loads."
    ),
    wrong="$ readelf -d rootfs/usr/bin/app | grep -E 'BIND_NOW|FLAGS'\n"
    " 0x000000006ffffffb (FLAGS_1)            Flags: PIE",
    right="$ readelf -d rootfs/usr/bin/app | grep -E 'BIND_NOW|FLAGS'\n"
    " 0x000000000000001e (FLAGS)              BIND_NOW\n 0x000000006ffffffb (FLAGS_1)            Flags: NOW PIE",
    fix="Link the program with -Wl,-z,now (Debian: DEB_BUILD_MAINT_OPTIONS=hardening=+bindnow).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.is_executable and facts.interpreter and facts.dynamic and facts.relro and not facts.bind_now:
            yield audit.finding(RULE, path, "binds lazily (no BIND_NOW): partial RELRO")
