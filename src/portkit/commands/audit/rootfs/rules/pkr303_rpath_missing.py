"""PKR303: an RPATH or RUNPATH directory that does not exist in the image."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.rpaths import rpath_entries
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR303",
    name="rpath-missing-directory",
    severity=Severity.WARNING,
    family="Search paths",
    summary="An RPATH or RUNPATH entry (after $ORIGIN is expanded) naming a directory the image does not have.",
    why=(
        "The entry is useless at best: every library lookup of the program tries it first, in vain. At worst "
        "it is a path of the build machine, or the directory the libraries were meant to be installed in, so "
        "the program loads other copies than intended, or none."
    ),
    wrong="$ readelf -d rootfs/usr/bin/app | grep RUNPATH\n"
    " 0x000000000000001d (RUNPATH)  Library runpath: [/opt/vendor/lib]\n"
    "$ ls rootfs/opt/vendor/lib\nls: cannot access 'rootfs/opt/vendor/lib': No such file or directory",
    right="$ ls rootfs/opt/vendor/lib\nlibvendor.so.1",
    fix="Install the libraries into the directory the RUNPATH names, or link without it.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for entry in rpath_entries(audit):
        if entry.verdict == "missing":
            shown = entry.written if entry.written == entry.directory else f"{entry.written} ({entry.directory})"
            yield audit.finding(RULE, entry.holder, f"its {entry.tag} lists {shown}, which is not in the image")
