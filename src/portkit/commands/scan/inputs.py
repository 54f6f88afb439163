"""What `portkit scan` parses: the translation units named on the command line
(files, directories searched for C and C++ by extension) or in a compilation
database, each with the flags it is compiled with."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.core.errors import BadInput
from portkit.cparse.compdb import CompileDatabase
from portkit.findings.text import count

SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C")
HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".H")
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "build", "node_modules", "__pycache__"})


@dataclass(frozen=True)
class TranslationUnit:
    path: Path
    flags: tuple[str, ...]


def units(
    inputs: Sequence[Path], database: Path | None, given_flags: Sequence[str], problems: list[str], refused: list[str]
) -> list[TranslationUnit]:
    """The translation units to scan, in a stable order, each once. Headers
    are scanned through the sources that include them; a header is its own
    unit only when named, or when a directory holds no sources at all.
    An operand that does not exist or is not named as C or C++ is refused (a
    usage error), a directory without C a problem; the rest goes on. A
    database's entries for other languages (assembly, Objective-C) are left out."""
    db = CompileDatabase(database) if database is not None else None
    flags_for: Callable[[Path], list[str]] = (
        (lambda p: [*given_flags, *db.flags_for(p)]) if db else (lambda _: list(given_flags))
    )
    paths: list[Path] = []
    if not inputs and db is not None:
        paths = [Path(f) for f in db.files() if is_c_or_cxx(f)]
    for item in inputs:
        if item.is_dir():
            found = _sources_below(item)
            if not found:
                problems.append(f"{item}: no C or C++ files below it")
            paths += found
        elif not (item.exists() or item.is_symlink()):
            refused.append(f"{item}: no such file or directory")
        elif not is_c_or_cxx(item.name):
            refused.append(f"{item}: not C or C++ source (scan reads {', '.join(SOURCES + HEADERS)} files)")
        else:
            paths.append(item)
    unique = list(dict.fromkeys(paths))
    return [TranslationUnit(p, tuple(flags_for(p))) for p in unique]


def is_c_or_cxx(name: str) -> bool:
    """Named as a C or C++ source or header, as compilers tell the language."""
    return name.endswith(SOURCES + HEADERS)


def _sources_below(root: Path) -> list[Path]:
    sources: list[Path] = []
    headers: list[Path] = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(directory) / name
            if name.endswith(SOURCES):
                sources.append(path)
            elif name.endswith(HEADERS):
                headers.append(path)
    return sources or headers


def require_some(units_found: Sequence[TranslationUnit], problems: Sequence[str]) -> None:
    if not units_found:
        first = problems[0] if problems else "name files or directories to scan, or -p a build directory"
        more = f" (and {count(len(problems) - 1, 'more problem')})" if len(problems) > 1 else ""
        raise BadInput(f"scan: nothing to scan: {first}{more}")
