"""PKR204: a program whose PT_INTERP is not in the image."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR204",
    name="missing-interpreter",
    severity=Severity.ERROR,
    family="Loading",
    summary="A dynamically linked program whose interpreter (PT_INTERP, the dynamic loader) does not exist in "
    "the image, or is not an ELF file.",
    why=(
        "The kernel starts the interpreter before the program; without it `execve` fails with ENOENT and the "
        "shell says `not found` about a file that is plainly there. It happens when the C library is missing, "
        "when the program was linked against another C library (musl's /lib/ld-musl-*.so.1 on a glibc image) "
        "or when the loader's symlink was not installed."
    ),
    wrong=(
        "$ readelf -l rootfs/usr/bin/app | grep interpreter\n"
        "      [Requesting program interpreter: /lib/ld-musl-aarch64.so.1]\n"
        "$ ls rootfs/lib/ld-musl-aarch64.so.1\n"
        "ls: cannot access 'rootfs/lib/ld-musl-aarch64.so.1': No such file or directory"
    ),
    right="$ readelf -l rootfs/usr/bin/app | grep interpreter\n      [Requesting program interpreter: "
    "/lib/ld-linux-aarch64.so.1]",
    fix="Link the program against the image's C library (its sysroot: --sysroot=...), or install the loader it "
    "asks for.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.interpreter is None:
            continue
        if not facts.interpreter:
            yield audit.finding(RULE, path, "its PT_INTERP names no file (an empty path): the kernel cannot start it")
            continue
        resolved = audit.image.resolve(facts.interpreter)
        if resolved.path is None:
            yield audit.finding(RULE, path, f"its interpreter {facts.interpreter} is not in the image ({resolved.why})")
        elif resolved.path in audit.image.malformed:
            yield audit.finding(RULE, path, f"its interpreter {facts.interpreter} is a malformed ELF file")
        elif resolved.path not in audit.image.elves:
            yield audit.finding(RULE, path, f"its interpreter {facts.interpreter} is not an ELF file")
