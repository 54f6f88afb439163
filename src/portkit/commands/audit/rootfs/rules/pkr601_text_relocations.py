"""PKR601: text relocations (DT_TEXTREL)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR601",
    name="text-relocations",
    severity=Severity.WARNING,
    family="Hardening",
    summary="A program or library with relocations in its code (DT_TEXTREL, or DF_TEXTREL in DT_FLAGS).",
    why=(
        "The loader must make the code pages writable to patch them: they are no longer shared between "
        "processes, memory stays writable and executable at once, and SELinux or PaX-style policies refuse "
        "to load the file. It comes from objects compiled without -fPIC linked into a shared library, or "
        "hand-written assembly that is not position-independent. Yocto's `textrel` and lintian's "
        "`shlib-with-text-relocations` report it."
    ),
    wrong="$ readelf -d rootfs/usr/lib/libfoo.so.1 | grep TEXTREL\n 0x0000000000000016 (TEXTREL)            0x0",
    right="$ readelf -d rootfs/usr/lib/libfoo.so.1 | grep TEXTREL\n# none",
    fix="Compile every object of the library with -fPIC (and -fPIE for programs); `scanelf -qT` names the "
    "code that needs the relocations.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.textrel:
            yield audit.finding(RULE, path, "has text relocations (TEXTREL): its code is patched at load time")
