"""PKR301: an RPATH or RUNPATH entry that names a directory of the build machine."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.rpaths import rpath_entries
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR301",
    name="rpath-build-path",
    severity=Severity.ERROR,
    family="Search paths",
    summary="An RPATH or RUNPATH entry under a home, temporary or build directory (/home, /tmp, a build tree's "
    "build/, sysroot/, .libs/, Yocto's tmp/work, Buildroot's output/).",
    why=(
        "The path was true on the build machine only. On the board the loader searches it first, so a library "
        "that happens to exist there (a world-writable /tmp, an NFS-mounted home) is loaded ahead of the "
        "image's: wrong code runs, or an attacker's. Yocto's insane.bbclass fails a package for it (`rpaths`). "
        "It comes from linking against an uninstalled build tree (libtool's .libs, CMake's build RPATH)."
    ),
    wrong="$ readelf -d rootfs/usr/bin/app | grep -E 'RPATH|RUNPATH'\n"
    " 0x000000000000001d (RUNPATH)  Library runpath: [/home/dev/bsp/build/tmp/work/app/image/usr/lib]",
    right="$ readelf -d rootfs/usr/bin/app | grep -E 'RPATH|RUNPATH'\n# none: the library is in /usr/lib",
    fix="Link without it (CMake: CMAKE_SKIP_INSTALL_RPATH or an install RPATH of $ORIGIN/../lib; libtool: "
    "install the library before linking against it), or strip it with `patchelf --remove-rpath` / `chrpath -d`.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for entry in rpath_entries(audit):
        if entry.verdict == "host":
            exists = " (it exists in the image too)" if audit.image.is_dir(entry.directory or "") else ""
            yield audit.finding(
                RULE, entry.holder, f"its {entry.tag} lists {entry.written}, a build machine's path "
                f"({entry.reason}){exists}"
            )  # fmt: skip
