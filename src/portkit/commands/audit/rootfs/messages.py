"""Words the rules share: lists cut short, the directories searched, and
where else in the image a missing name lies."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

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


def elsewhere(image: Image, name: str, searched: Sequence[str]) -> list[str]:
    """Files (or links) named `name` in directories that were not searched."""
    searched_real = {image.resolve(d).path for d in searched}
    hits = []
    for path in image.named(name):
        in_searched = image.resolve(posixpath.dirname(path)).path in searched_real
        if image.nodes[path].kind in ("file", "link") and not in_searched:
            hits.append(path)
    return sorted(hits)
