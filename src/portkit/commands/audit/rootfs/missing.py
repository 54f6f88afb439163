"""A needed library the loader does not find, said once for the rules that
report it (PKR201 for programs and public libraries, PKR206 and PKR207 for
what only plugins load): where the loader looked, what lies elsewhere in
the image under that name (of a usable ABI or not), links of that name
that lead nowhere, why the image may lack them (maintainer scripts that
have not run), and the directory the image keeps such libraries in."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass

from portkit.commands.audit.rootfs.abi import FileAbi
from portkit.commands.audit.rootfs.audit import PLUGIN, Audit
from portkit.commands.audit.rootfs.loader import Loader, Lookup
from portkit.commands.audit.rootfs.wording import elsewhere, listed


@dataclass(frozen=True)
class Missing:
    path: str  # the object that needs it
    name: str  # the DT_NEEDED
    roots: list[str]  # where loading began, each time it went missing
    lookup: Lookup  # the first of them
    plugins_only: bool  # every start was a plugin (nothing in the image links them)


def missing_libraries(audit: Audit) -> Iterator[Missing]:
    """Each (object, name) the loader does not find, with no file of another ABI in the way (that is PKR202)."""
    for (path, name), outcomes in sorted(audit.loading.items()):
        missing = [(root, lookup) for root, lookup in outcomes if lookup.found is None and not lookup.skipped]
        if not missing:
            continue
        linked = [(root, lookup) for root, lookup in missing if audit.root_kinds.get(root) != PLUGIN]
        chosen = linked or missing
        yield Missing(path, name, [root for root, _ in chosen], chosen[0][1], not linked)


def details(audit: Audit, item: Missing) -> tuple[str, bool]:
    """`; lib/x/libfoo.so.1 lies in a directory it does not search; ...`,
    and whether a copy the loader could use lies elsewhere in the image."""
    abi = audit.abis[item.path]
    usable, foreign = elsewhere(audit.image, item.name, item.lookup.searched, abi)
    parts = [f"{path} is {why}" for path, why in item.lookup.dangling]
    if usable:
        parts.append(f"{listed(usable, 3)} {'lies' if len(usable) == 1 else 'lie'} in a directory it does not search")
    elif foreign:
        parts.append(f"the image has it only for another ABI: {listed(foreign, 3)}")
    reason = audit.scripts_not_run
    if reason and (usable or item.lookup.dangling):
        parts.append(f"this is {reason}: links they make (update-alternatives) are not there yet")
    return "".join(f"; {part}" for part in parts), bool(usable)


def searched_phrase(lookup: Lookup) -> str:
    return listed(list(lookup.searched) or ["(no directory)"], 6)


def fix(audit: Audit, item: Missing, usable_elsewhere: bool) -> str:
    """The fix in the image's own terms: its libdir for that ABI."""
    abi = audit.abis[item.path]
    libdir = libdir_for(audit, abi, audit.model.loader_for(abi, audit.image.elves[item.path].interpreter))
    if usable_elsewhere:
        text = (f"Put the library where the loader looks: into {libdir} (or a link there), a directory listed in "
                "/etc/ld.so.conf.d/, or a RUNPATH of the program ($ORIGIN/../lib)")  # fmt: skip
        if audit.scripts_not_run:
            text += "; or let the packages' maintainer scripts run (debootstrap --second-stage, dpkg --configure -a)"
        return text + "."
    name = abi.known.name if abi.known else abi.label
    return (f"Install {item.name} built for {name} into {libdir} (--libdir={libdir}), or the package that provides "
            "it; a RUNPATH of $ORIGIN/../lib suits a private library.")  # fmt: skip


def libdir_for(audit: Audit, abi: FileAbi, loader: Loader) -> str:
    """Where this image keeps libraries of `abi`: the loader's system
    directory under /usr that exists (/usr/lib/aarch64-linux-gnu on Debian,
    /usr/lib on Yocto, /usr/lib64 where that is the libdir); for an ABI
    whose loader the image lacks, its multiarch directory when the image's
    own ABI keeps its libraries in one."""
    existing = [d for d in loader.system_dirs if audit.image.is_dir(d)]
    preferred = [d for d in existing if d.startswith("/usr/")] or existing
    if loader.program is not None and preferred:
        return preferred[0]
    target_loader = audit.model.loader_for(audit.target_abi, None)
    multiarch = audit.target.abi.triple
    if abi.known is not None and any(posixpath.basename(d) == multiarch for d in target_loader.system_dirs):
        return f"/usr/lib/{abi.known.triple}"
    return preferred[0] if preferred else "/usr/lib"
