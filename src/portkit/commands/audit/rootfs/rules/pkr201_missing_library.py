"""PKR201: a DT_NEEDED library the image's loader does not find."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit, loaders_phrase
from portkit.commands.audit.rootfs.messages import elsewhere, listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR201",
    name="missing-library",
    severity=Severity.ERROR,
    family="Loading",
    summary="A library named by DT_NEEDED that the image's loader would not find anywhere it searches.",
    why=(
        "The program fails at start with `error while loading shared libraries: libfoo.so.1: cannot open shared "
        "object file`, on the board, not in the build. The library may be absent, or installed where this "
        "loader does not look: /lib64 on an arm64 image whose loader searches /lib/aarch64-linux-gnu and /lib, "
        "a directory left out of /etc/ld.so.conf, a RUNPATH that points at the build machine. The search is the "
        "image's own loader's: RPATH, RUNPATH with $ORIGIN, ld.so.conf and its includes, the directories "
        "compiled into the loader."
    ),
    wrong=(
        "$ readelf -d rootfs/usr/bin/app | grep NEEDED\n"
        " 0x0000000000000001 (NEEDED)  Shared library: [libfoo.so.1]\n"
        "$ ls rootfs/lib64/\n"
        "libfoo.so.1\n"
        "# an arm64 image: its loader searches /lib/aarch64-linux-gnu, /usr/lib/aarch64-linux-gnu, /lib, /usr/lib"
    ),
    right="$ ls rootfs/usr/lib/\nlibfoo.so.1",
    fix="Install the library into a directory the loader searches (the target's libdir: --libdir=/usr/lib), or "
    "add the package that provides it; a RUNPATH of $ORIGIN/../lib suits a private library.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for (path, name), outcomes in sorted(audit.loading.items()):
        missing = [(root, lookup) for root, lookup in outcomes if lookup.found is None and not lookup.skipped]
        if not missing:
            continue
        lookup = missing[0][1]
        when = loaders_phrase([root for root, _ in missing], path)
        searched = list(lookup.searched) or ["(no directory)"]
        message = f"needs {name}, which the loader does not find{when}; it searches {listed(searched, 6)}"
        copies = elsewhere(audit.image, name, lookup.searched)
        if copies:
            message += f"; {listed(copies, 3)} lies in a directory it does not search"
        yield audit.finding(RULE, path, message)
