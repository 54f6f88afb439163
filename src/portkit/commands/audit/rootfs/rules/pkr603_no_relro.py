"""PKR603: no RELRO (PT_GNU_RELRO)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR603",
    name="no-relro",
    severity=Severity.NOTE,
    family="Hardening",
    summary="A dynamically linked program or library without PT_GNU_RELRO: its relocated data (GOT, vtables, "
    "init arrays) stays writable for the life of the process.",
    why=(
        "RELRO lets the loader make the data it relocated read-only once it is done, so an arbitrary-write bug "
        "cannot redirect calls through the GOT. Every current toolchain links with -z relro by default; its "
        "absence means old or custom link flags (checksec: `No RELRO`)."
    ),
    wrong="$ readelf -lW rootfs/usr/bin/app | grep -c GNU_RELRO\n0",
    right="$ readelf -lW rootfs/usr/bin/app | grep GNU_RELRO\n  GNU_RELRO      0x0fdd0 0x000000000001fdd0 ...",
    fix="Link with -Wl,-z,relro (and -Wl,-z,now for full RELRO).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.dynamic and not facts.relro:
            yield audit.finding(RULE, path, "has no RELRO (PT_GNU_RELRO): its GOT stays writable")
