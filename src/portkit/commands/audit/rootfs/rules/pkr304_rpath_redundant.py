"""PKR304: an RPATH or RUNPATH entry the loader searches anyway."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.rpaths import rpath_entries
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR304",
    name="rpath-redundant",
    severity=Severity.NOTE,
    family="Search paths",
    summary="An RPATH or RUNPATH entry that is one of the loader's own system directories (/usr/lib on most images).",
    why=(
        "The loader searches it anyway; the entry only makes each lookup slower and, as DT_RPATH, takes "
        "precedence over LD_LIBRARY_PATH, which then cannot override a library for debugging. Yocto reports "
        "it as `useless-rpaths`."
    ),
    wrong="$ readelf -d rootfs/usr/bin/app | grep RPATH\n 0x000000000000000f (RPATH)  Library rpath: [/usr/lib]",
    right="$ readelf -d rootfs/usr/bin/app | grep RPATH\n# none",
    fix="Link without it (libtool and CMake add it when the install libdir is given as an RPATH).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for entry in rpath_entries(audit):
        if entry.verdict == "redundant":
            yield audit.finding(
                RULE, entry.holder, f"its {entry.tag} lists {entry.written}, which the loader searches anyway"
            )
