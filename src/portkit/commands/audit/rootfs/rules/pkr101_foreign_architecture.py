"""PKR101: an ELF file built for another processor or ABI than the image's."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.abi import EM_BPF
from portkit.commands.audit.rootfs.audit import Audit, placement
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR101",
    name="foreign-architecture",
    severity=Severity.ERROR,
    family="Architecture",
    summary="An ELF file whose machine, class, byte order or float ABI is not the image's (nor one its kernel also "
    "runs, such as armhf on arm64).",
    why=(
        "A program for another processor fails with `Exec format error` (or `not found`, when its interpreter is "
        "missing); a library for another ABI is skipped by the loader as if it were not there. Cross builds leak "
        "them: a host tool installed into the image, a prebuilt blob for the wrong board, an x86 library copied "
        "from the build machine. Firmware for peripherals (`/lib/firmware`), data (`/usr/share`, grub's modules), "
        "separate debug files (`/usr/lib/debug`) and BPF objects are not checked, as Buildroot's check-bin-arch "
        "and Yocto's insane.bbclass do not; "
        "kernel modules need only be of the image's processor family (a 64-bit kernel under a 32-bit userland)."
    ),
    wrong=(
        "$ readelf -h rootfs/usr/bin/tool | grep -E 'Class|Machine'\n"
        "  Class:                             ELF64\n"
        "  Machine:                           Advanced Micro Devices X86-64\n"
        "# in an arm64 image"
    ),
    right=(
        "$ readelf -h rootfs/usr/bin/tool | grep -E 'Class|Machine'\n"
        "  Class:                             ELF64\n"
        "  Machine:                           AArch64"
    ),
    fix="Rebuild it with the target's toolchain (CC=aarch64-linux-gnu-gcc, the build system's host triple), or "
    "leave it out of the image; firmware for other processors belongs under /lib/firmware.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    target = audit.target.abi
    for path, facts in audit.files.items():
        where = placement(path, facts)
        if where in ("firmware", "data", "debug") or facts.machine in (0, EM_BPF):
            continue
        abi = audit.abis[path]
        if where == "module":
            if abi.known is None or abi.known.family != target.family:
                yield audit.finding(RULE, path, f"a kernel module for {abi.label}, in an image for {target.label}")
            continue
        if audit.is_native(path):
            continue
        same_machine = (abi.machine, abi.elf_class, abi.little_endian) == (
            target.machine,
            target.elf_class,
            target.little_endian,
        )
        if same_machine and not facts.dynamic and not facts.interpreter:
            continue  # a static program of the other float ABI runs: the kernel does not care
        yield audit.finding(RULE, path, f"built for {abi.label}; the image is {target.label}")
