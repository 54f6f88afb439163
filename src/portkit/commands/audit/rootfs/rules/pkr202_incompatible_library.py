"""PKR202: a DT_NEEDED library found only in builds for another ABI."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit, loaders_phrase
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR202",
    name="incompatible-library",
    severity=Severity.ERROR,
    family="Loading",
    summary="A library named by DT_NEEDED exists where the loader searches, but only built for another machine, "
    "class or float ABI, which the loader skips.",
    why=(
        "glibc's loader opens each candidate, and passes over one whose ELF header is not its own (a 32-bit "
        "library for a 64-bit program, soft-float for hard-float) without a word; when nothing else matches, "
        "the program fails as if the library were missing. The wrong build usually came from the build "
        "machine or from a multilib directory installed into the wrong place."
    ),
    wrong=(
        "$ readelf -h rootfs/usr/lib/libfoo.so.1 | grep Class\n"
        "  Class:                             ELF32\n"
        "# needed by an ELF64 AArch64 program"
    ),
    right="$ readelf -h rootfs/usr/lib/libfoo.so.1 | grep Class\n  Class:                             ELF64",
    fix="Install the library built for the program's ABI (the same toolchain and flags); keep builds for "
    "other ABIs in their own multiarch or multilib directory.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for (path, name), outcomes in sorted(audit.loading.items()):
        wrong = [(root, lookup) for root, lookup in outcomes if lookup.found is None and lookup.skipped]
        if not wrong:
            continue
        lookup = wrong[0][1]
        files = [f"{where} ({what})" for where, what in lookup.skipped]
        when = loaders_phrase([root for root, _ in wrong], path)
        yield audit.finding(
            RULE,
            path,
            f"needs {name}{when}; the loader finds only {listed(files, 3)} and skips "
            f"{'it' if len(files) == 1 else 'them'}: the program is {audit.abis[path].label}",
        )
