"""PKR205: a program whose interpreter is a loader for another ABI."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.abi import abi_of, interpreter_owners
from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR205",
    name="wrong-interpreter",
    severity=Severity.ERROR,
    family="Loading",
    summary="A program whose PT_INTERP names the loader of another ABI: the file there is built for another "
    "machine, or the path is another ABI's (an armhf program asking for armel's /lib/ld-linux.so.3).",
    why=(
        "The kernel maps whatever file the path names; a loader of another ABI cannot run the program, and a "
        "path of another ABI means the program was linked with the wrong toolchain or flags (a soft-float "
        "program on a hard-float image finds no compatible libraries even when the loader is there)."
    ),
    wrong="$ readelf -l rootfs/usr/bin/app | grep interpreter\n      [Requesting program interpreter: "
    "/lib/ld-linux.so.3]\n# an armhf (hard-float) program",
    right="$ readelf -l rootfs/usr/bin/app | grep interpreter\n      [Requesting program interpreter: "
    "/lib/ld-linux-armhf.so.3]",
    fix="Build the program with the image's toolchain and float ABI (arm-linux-gnueabihf-gcc, -mfloat-abi=hard).",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        if facts.interpreter is None:
            continue
        abi = audit.abis[path]
        found = audit.image.elf_at(facts.interpreter)
        if found is not None and not abi_of(found[1]).loads(abi):
            yield audit.finding(
                RULE, path, f"its interpreter {facts.interpreter} is built for {abi_of(found[1]).label}; "
                f"the program is {abi.label}"
            )  # fmt: skip
            continue
        owners = interpreter_owners(facts.interpreter)
        if owners and abi.known is not None and abi.known not in owners:
            names = " and ".join(o.name for o in owners)
            expected = abi.known.glibc_interpreter
            yield audit.finding(
                RULE, path, f"its interpreter {facts.interpreter} is the loader of {names}; "
                f"{abi.known.name} programs use {expected} (or musl's {abi.known.musl_interpreter})"
            )  # fmt: skip
