"""The RPATH and RUNPATH entries of the image's files, each judged once:
relative to the working directory, a directory of the build machine, one
the image lacks, one the loader searches anyway, or a good one."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.loader import expand_tokens

# Where build trees live and what they are called: home and temporary
# directories, CI workspaces, and the parts of Yocto's, Buildroot's and
# libtool's trees (tmp/work, recipe-sysroot, output/host, .libs) that leak
# into RPATHs when a package is linked against its build tree.
_HOST_ROOTS = ("home", "tmp", "var/tmp", "root", "build", "builds", "work", "workspace", "usr/src", "mnt", "media")
_BUILD_PARTS = re.compile(
    r"(?:build|_build|builddir|build-[\w.-]+|[\w.-]+-build|objdir|obj-[\w.-]+|sysroots?|recipe-sysroot(?:-native)?"
    r"|staging|stage|\.libs|tmp-glibc|tmp-musl|output)"
)


@dataclass(frozen=True)
class RpathEntry:
    holder: str  # the ELF file
    tag: str  # RPATH or RUNPATH
    written: str  # the entry as written
    verdict: str  # relative, platform, host, missing, redundant, ok
    directory: str | None  # the expanded absolute directory, when there is one
    reason: str = ""  # for host: what gives it away


def rpath_entries(audit: Audit) -> Iterator[RpathEntry]:
    for path, facts in audit.programs_and_libraries.items():
        for tag, value in (("RPATH", facts.rpath), ("RUNPATH", facts.runpath)):
            if value is None:
                continue
            loader = audit.model.loader_for(audit.abis[path], facts.interpreter)
            system = {audit.image.resolve(d).path for d in loader.system_dirs} - {None}
            lib = loader.system_dirs[0].lstrip("/") if loader.system_dirs else "lib"
            for written in value.split(":"):
                yield _judge(audit, path, tag, written, lib, system)


def _judge(audit: Audit, holder: str, tag: str, written: str, lib: str, system: set) -> RpathEntry:
    expanded = expand_tokens(written, "/" + posixpath.dirname(holder), lib)
    if expanded is None:
        return RpathEntry(holder, tag, written, "platform", None)
    if not expanded.startswith("/"):
        return RpathEntry(holder, tag, written, "relative", None)
    directory = posixpath.normpath(expanded)
    # On the running system the build machine is the image: a path that exists there is its own.
    live_and_there = audit.image.live and audit.image.is_dir(directory)
    reason = host_reason(directory) if not written.startswith("$") and not live_and_there else ""
    if reason:
        return RpathEntry(holder, tag, written, "host", directory, reason)
    if not audit.image.is_dir(directory):
        return RpathEntry(holder, tag, written, "missing", directory)
    if audit.image.resolve(directory).path in system:
        return RpathEntry(holder, tag, written, "redundant", directory)
    return RpathEntry(holder, tag, written, "ok", directory)


def host_reason(directory: str) -> str:
    """Why an absolute directory looks like the build machine's, or ''."""
    relative = directory.strip("/")
    for root in _HOST_ROOTS:
        if relative == root or relative.startswith(root + "/"):
            return f"under /{root}"
    for part in relative.split("/"):
        if _BUILD_PARTS.fullmatch(part):
            return f"a build tree's {part}/"
    return ""
