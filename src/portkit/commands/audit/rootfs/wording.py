"""Words the rules share: lists cut short, the directories searched, and
where else in the image a missing name lies."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from portkit.commands.audit.rootfs.abi import FileAbi, abi_of
from portkit.commands.audit.rootfs.image import Image
from portkit.core.output import count


def entries(n: int) -> str:
    """`1 entry`, `662 entries`: the paths of an image."""
    return count(n, "entry", "entries")


def listed(items: Sequence[str], limit: int = 4) -> str:
    """`a, b, c and 2 more`."""
    if len(items) <= limit:
        return ", ".join(items)
    return f"{', '.join(items[:limit])} and {len(items) - limit} more"


def elsewhere(image: Image, name: str, searched: Sequence[str], abi: FileAbi) -> tuple[list[str], list[str]]:
    """Files named `name` in directories that were not searched: those a
    loader of `abi` could load, and those built for another ABI (as
    `path (arm64)`), which are no candidates."""
    searched_real = {image.resolve(d).path for d in searched}
    usable, foreign = [], []
    for path in sorted(image.named(name)):
        if image.nodes[path].kind not in ("file", "link"):
            continue
        if image.resolve(posixpath.dirname(path)).path in searched_real:
            continue
        found = image.elf_at(path)
        if found is None:
            continue
        other = abi_of(found[1])
        if other.loads(abi):
            usable.append(path)
        else:
            foreign.append(f"{path} ({other.name})")
    return usable, foreign
