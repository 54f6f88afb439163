"""The C and C++ files a command reads: those named on the command line
(files, and directories searched for C and C++ by extension) or, with no
input, every file of the compilation database, each with the flags it is
compiled with. scan parses a directory's sources (its headers through them,
or alone when it has no source); layout every source and header, since a
header no source includes still defines records."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.cparse.compdb import CompileDatabase

SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C")
HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".H")
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "build", "node_modules", "__pycache__"})


@dataclass(frozen=True)
class TranslationUnit:
    path: Path
    flags: tuple[str, ...]


def units(
    inputs: Sequence[Path],
    database: Path | None,
    given_flags: Sequence[str],
    problems: list[str],
    refused: list[str],
    *,
    headers: bool = False,
    every_reading: bool = False,
) -> list[TranslationUnit]:
    """The files to parse, in a stable order, each once. Below a directory
    the sources, then (headers=True) its headers; else its headers only when
    it has no source. An operand that does not exist or is not named as C or
    C++ is refused (a usage error), a directory without C a problem; the rest
    goes on. A database's entries for other languages (assembly,
    Objective-C) are left out. every_reading: a file the database compiles
    several ways (other -D, -I, -std) is one unit per way, not its first."""
    db = CompileDatabase(database) if database is not None else None
    variants_for: Callable[[Path], list[list[str]]] = (
        (lambda p: [[*given_flags, *flags] for flags in (db.variants_for(p) or [[]])])
        if db
        else (lambda _: [list(given_flags)])
    )
    paths: list[Path] = []
    if not inputs and db is not None:
        paths = [Path(f) for f in db.files() if is_c_or_cxx(f)]
    for item in inputs:
        if item.is_dir():
            sources, found_headers = c_files_below(item)
            found = [*sources, *found_headers] if headers else sources or found_headers
            if not found:
                problems.append(f"{item}: no C or C++ files below it")
            paths += found
        elif not (item.exists() or item.is_symlink()):
            refused.append(f"{item}: no such file or directory")
        elif not is_c_or_cxx(item.name):
            refused.append(f"{item}: not C or C++ source (named {', '.join(SOURCES + HEADERS)})")
        else:
            paths.append(item)
    unique = list(dict.fromkeys(paths))
    found = []
    for path in unique:
        variants = variants_for(path)
        found += [TranslationUnit(path, tuple(flags)) for flags in (variants if every_reading else variants[:1])]
    return found


def is_c_or_cxx(name: str) -> bool:
    """Named as a C or C++ source or header, as compilers tell the language."""
    return name.endswith(SOURCES + HEADERS)


def c_files_below(root: Path) -> tuple[list[Path], list[Path]]:
    """The sources and the headers below root, by extension, in sorted
    order; version-control, build and hidden directories are skipped."""
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
    return sources, headers
