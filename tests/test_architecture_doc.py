"""docs/architecture.md stays true to the tree: every file and folder it names exists.

The tree block is read by its indentation (a name under a folder is a path
below it); in the prose, a `quoted` path is looked up from the clone's root,
src/portkit/, its commands/ or native/, and a bare file name anywhere in the clone.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "architecture.md"
EXTENSIONS = ("py", "c", "h", "md", "yaml", "awk", "cmake", "txt", "json", "toml", "xsd")
FILE_NAME = re.compile(r"[\w.+/-]+\.(?:" + "|".join(EXTENSIONS) + r")")
NAME = re.compile(r"[\w.+/-]+/|" + FILE_NAME.pattern)
# where the prose's partial paths start: `core/output.py`, `scan/unit.py`, `rootfs/elf.py`
BASES = ("", "src/portkit/", "src/portkit/commands/", "src/portkit/commands/audit/", "native/")
# files the document names that a run makes, not the clone
MADE_BY_A_RUN = {"study.json", "portkit/agents/manifest.json", "./portkit-target"}


def tree_paths(text: str) -> list[str]:
    """The paths the tree block names: a line's leading names (`cpu/  vdso/`,
    `text.py  document.py`) below the nearest less indented folder."""
    block = text.split("## The tree", 1)[1].split("```", 2)[1]
    paths: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, folder path)
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        # names two spaces apart (`cpu/  vdso/`), the description three or more after
        leading = re.match(rf"(?:{NAME.pattern})(?:  (?:{NAME.pattern}))*(?=\s|$)", line.strip())
        names = leading.group(0).split() if leading else []
        if not names:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        paths += [parent + name for name in names]
        if len(names) == 1 and names[0].endswith("/"):
            stack.append((indent, parent + names[0]))
    return paths


def prose_paths(text: str) -> list[str]:
    """`quoted` paths and file names outside the tree block."""
    quoted = re.findall(r"`([^`\s]+)`", text.split("## The tree", 1)[0] + text.split("```", 2)[2])
    return [
        q.rstrip(".,:;")
        for q in quoted
        if not q.startswith(("-", "http", "$", "/", "~", "portkit.", "build/"))  # a schema; what a build makes
        and not re.search(r"[A-Z*<>{}()=|]|\.\.\.", q)
        and (FILE_NAME.fullmatch(q.rstrip(".,:;")) or ("/" in q and "." not in q.rsplit("/", 1)[1]))
    ]


def tracked() -> set[str]:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(files.splitlines())


def exists(path: str, names: set[str]) -> bool:
    if "/" not in path.rstrip("/"):
        return any(Path(f).name == path.rstrip("/") for f in names) or any((ROOT / b / path).exists() for b in BASES)
    return any((ROOT / base / path).exists() for base in BASES)


def test_every_path_in_the_tree_exists() -> None:
    text = DOCUMENT.read_text()
    paths = tree_paths(text)
    assert len(paths) > 50  # the block was read, not skipped
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_every_path_in_the_prose_exists() -> None:
    names = tracked()
    paths = prose_paths(DOCUMENT.read_text())
    assert paths
    assert [p for p in paths if p not in MADE_BY_A_RUN and not exists(p, names)] == []


def test_the_reader_sees_a_missing_file() -> None:
    """The check itself: a name the tree lists below a folder is that folder's file."""
    block = "## The tree\n\n```\nsrc/portkit/\n  core/\n    gone.py   said to be here\n    output.py\n```\n"
    assert tree_paths(block) == [
        "src/portkit/",
        "src/portkit/core/",
        "src/portkit/core/gone.py",
        "src/portkit/core/output.py",
    ]
