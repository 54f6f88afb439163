"""PKR203: a library of another ABI that the loader passes over first."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR203",
    name="shadowing-incompatible-library",
    severity=Severity.NOTE,
    family="Loading",
    summary="A file of the needed name but another ABI lies earlier on the search path than the library "
    "that is loaded.",
    why=(
        "The loader skips it and the program works, but a directory searched by programs of one ABI holds a "
        "library of another: remove the right one, or reorder the path, and the program breaks with a "
        "misleading message. It is often a sign of a multilib build installed into the wrong libdir."
    ),
    wrong="$ ls rootfs/usr/lib/libfoo.so.1 rootfs/usr/lib/aarch64-linux-gnu/libfoo.so.1\n# the first is ELF32 ARM",
    right="$ ls rootfs/usr/lib/arm-linux-gnueabihf/libfoo.so.1 rootfs/usr/lib/aarch64-linux-gnu/libfoo.so.1",
    fix="Move the other ABI's library into that ABI's own directory (its multiarch triple or lib32).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for (path, name), outcomes in sorted(audit.loading.items()):
        for _, lookup in outcomes:
            if lookup.found is not None and lookup.skipped:
                files = [f"{where} ({what})" for where, what in lookup.skipped]
                yield audit.finding(
                    RULE, path, f"needs {name}: the loader skips {listed(files, 3)} before it loads {lookup.found}"
                )
                break
