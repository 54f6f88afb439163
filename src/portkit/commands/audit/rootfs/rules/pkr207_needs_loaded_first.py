"""PKR207: a plugin needs a library found only because a program loaded it first."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.missing import missing_libraries
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR207",
    name="needs-loaded-first",
    severity=Severity.NOTE,
    family="Loading",
    summary="A plugin (or a library only plugins load) needs a library that lies off the loader's path but that "
    "the image has under that SONAME: it loads only in a process that has loaded that library already.",
    why=(
        "The loader reuses a library already in the process when a DT_NEEDED matches its SONAME, before any "
        "search. A launcher that opens a library by its full path (java's libjli opens lib/server/libjvm.so) "
        "and then the plugins that need it (libjava.so needs libjvm.so) works; the same plugin opened by "
        "anything else fails with `cannot open shared object file`. Which program opens what first is in "
        "its code, not in the image: portkit says what the image shows (who carries the SONAME, that nothing "
        "links the plugin) and leaves the verdict to whoever knows the launcher."
    ),
    wrong=(
        "$ readelf -d rootfs/usr/lib/jvm/java-17-openjdk-arm64/lib/libjava.so | grep -E 'NEEDED|RUNPATH'\n"
        " 0x0000000000000001 (NEEDED)  Shared library: [libjvm.so]\n"
        " 0x000000000000001d (RUNPATH) Library runpath: [$ORIGIN]\n"
        "$ ls rootfs/usr/lib/jvm/java-17-openjdk-arm64/lib/server/\n"
        "libjvm.so"
    ),
    right="# the launcher opens lib/server/libjvm.so by path before it opens libjava.so: nothing to change",
    fix="Nothing, when the launcher opens the library first by design; otherwise give the plugin a RUNPATH that "
    "reaches the library ($ORIGIN/server), or link its launcher against it.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for item in missing_libraries(audit):
        holders = audit.by_soname_for(item.path, item.name) if item.plugins_only else []
        if not holders:
            continue
        plugins = sorted(set(item.roots))
        by = "" if plugins == [item.path] else f" (when loaded by {listed(plugins, 3)})"
        yield audit.finding(
            RULE,
            item.path,
            f"needs {item.name}, which is not on the loader's path{by}, but {listed(holders, 2)} "
            f"{'has' if len(holders) == 1 else 'have'} that SONAME: it loads only in a process that has opened "
            f"{'it' if len(holders) == 1 else 'one of them'} first (by path, as a launcher's dlopen does); "
            + ("nothing in the image links it" if plugins == [item.path] else "only plugins load it"),
        )
