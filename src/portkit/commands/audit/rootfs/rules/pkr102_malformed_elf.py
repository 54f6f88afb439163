"""PKR102: a file that starts as ELF but cannot be read as one."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit, placement
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR102",
    name="malformed-elf",
    severity=Severity.WARNING,
    family="Architecture",
    summary="A file with the ELF magic number whose headers or tables cannot be read (truncated, or damaged); "
    "separate debug files, whose sections are NOBITS, are debug data and not read as programs.",
    why=(
        "The kernel refuses such a program and the loader such a library, usually with a message that names "
        "neither the file nor the reason. A truncated ELF file in an image is most often an interrupted copy, "
        "a full disk during the build, or a file edited in place."
    ),
    wrong="$ readelf -h rootfs/usr/lib/libfoo.so.1\nreadelf: Error: the file is too short for its section headers",
    right="$ readelf -h rootfs/usr/lib/libfoo.so.1\nELF Header:\n  Magic:   7f 45 4c 46 02 01 01 00 ...",
    fix="Install the file again from its package or build output and compare its size with the original.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, why in sorted(audit.image.malformed.items()):
        if placement(path) not in ("firmware", "debug"):
            yield audit.finding(RULE, path, f"not a readable ELF file: {why}")
