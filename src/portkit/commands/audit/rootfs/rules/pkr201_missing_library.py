"""PKR201: a DT_NEEDED library the image's loader does not find."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit, loaders_phrase
from portkit.commands.audit.rootfs.missing import details, fix, missing_libraries, searched_phrase
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR201",
    name="missing-library",
    severity=Severity.ERROR,
    family="Loading",
    summary="A library named by DT_NEEDED that the image's loader would not find anywhere it searches, needed by "
    "a program or by a library the loader finds by name (a plugin's needs are PKR206 and PKR207).",
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
    fix="Install the library into a directory the loader searches (the image's libdir: /usr/lib/<triple> on a "
    "multiarch image such as Debian's, /usr/lib on most others), or add the package that provides it; a RUNPATH "
    "of $ORIGIN/../lib suits a private library. Each finding names the directory for its own ABI.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for item in missing_libraries(audit):
        if item.plugins_only:
            continue  # PKR206, PKR207: only a plugin fails
        when = loaders_phrase(item.roots, item.path)
        more, usable = details(audit, item)
        message = (f"needs {item.name}, which the loader does not find{when}; it searches "
                   f"{searched_phrase(item.lookup)}{more}")  # fmt: skip
        yield audit.finding(RULE, item.path, message, fix(audit, item, usable))
