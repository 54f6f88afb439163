"""PKR302: an RPATH or RUNPATH entry relative to the process's working directory."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.rpaths import rpath_entries
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR302",
    name="rpath-relative",
    severity=Severity.ERROR,
    family="Search paths",
    summary="An RPATH or RUNPATH entry that is relative (`lib`, `../lib`) or empty (`::`, a leading or "
    "trailing colon): the loader resolves it against the working directory of the process.",
    why=(
        "Whoever chooses the directory a program is started from chooses its libraries: a program run from "
        "/tmp loads /tmp/lib/libc.so.6 if it is there. It works by accident in the build tree, where the "
        "working directory happens to be right. $ORIGIN is the relocatable form that is safe."
    ),
    wrong="$ readelf -d rootfs/usr/bin/app | grep RUNPATH\n 0x000000000000001d (RUNPATH)  Library runpath: [../lib:]",
    right="$ readelf -d rootfs/usr/bin/app | grep RUNPATH\n"
    " 0x000000000000001d (RUNPATH)  Library runpath: [$ORIGIN/../lib]",
    fix="Use $ORIGIN (-Wl,-rpath,'$ORIGIN/../lib') for a path relative to the program, or an absolute "
    "directory of the image; remove stray colons.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for entry in rpath_entries(audit):
        if entry.verdict == "relative":
            shown = f"'{entry.written}'" if entry.written else "an empty entry"
            yield audit.finding(
                RULE, entry.holder, f"its {entry.tag} lists {shown}, searched relative to the working directory"
            )
