"""The real-bug corpus's recipe (corpus.toml beside this file): which Debian
bookworm source packages to fetch, how to configure each so that its files
parse with the flags its build uses, and the 64-bit defects in them, each
with the lines an upstream fix changed and the fix's link.

Only the recipe is in the repository; the bench fetches the third-party
source with `apt-get source PACKAGE=VERSION`. A recipe that does not hold
together is refused with one RecipeError naming the entry and the reason.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

RECIPE = Path(__file__).resolve().parent / "corpus.toml"

# The defect classes the issue names; each entry is one of them.
CLASSES = {
    "pointer-int-cast": "a pointer stored in, or cast through, an int or a long that is narrower than it",
    "printf-format": "a printf/scanf directive whose width is wrong for the argument in the new model",
    "long-in-struct": "long (or a pointer) in a struct written to a file, a wire or the kernel",
    "mask-shift": "a 32-bit mask or shift applied to a long or size_t",
    "implicit-declaration": "a call to an undeclared function that returns a pointer: int truncates it",
    "time-t-truncation": "time_t stored in an int or another 32-bit type",
    "pointer-aliasing": "a 32-bit object written through a pointer to long (or the reverse)",
    "sizeof-width": "a size or count computed with a 32-bit type's width where a pointer-sized one is meant",
    "off-t-truncation": "a file size or offset held in a 32-bit off_t or long (files of 2 GiB and more)",
    "size-truncation": "a size_t or ssize_t stored in a 32-bit int or field: a count past 4 GiB is cut",
}
MODELS = ("LP64", "LLP64")
# Where the code worked before the move (portkit scan --from): 32-bit code
# (ILP32, the default), or LP64 for portable code that works on 64-bit Linux
# and breaks when built for 64-bit Windows, where `long` stays 32 bits.
HOMES = ("ILP32", "LP64")
# How a candidate was found: in upstream's history (the fix's message or diff),
# or from a warning aarch64's compiler gives and arm's does not, then the
# upstream fix of that line (these favour the compilers: reported apart).
FOUND_VIA = ("upstream history", "compiler")
_VERSION = re.compile(r"^(\d+:)?[0-9][A-Za-z0-9.+~-]*$")
_SOURCE_NAME = re.compile(r"^[a-z0-9][a-z0-9.+-]+$")
_LINK = re.compile(r"^https://\S+$")
_FLAG = re.compile(r"^-(D|U|I|include|isystem|idirafter|iquote|std=)")


class RecipeError(ValueError):
    """The recipe is malformed; the message names the entry and what is wrong."""


@dataclass(frozen=True)
class Package:
    name: str  # the recipe's name for this tree: the source package, or a label for a second configuration
    version: str  # bookworm's version, as `apt-get source NAME=VERSION` takes it
    upstream: str  # the upstream repository
    configure: tuple[str, ...]  # run once in the unpacked tree before anything parses; () for none
    flags: tuple[str, ...]  # -D/-I/-include... every tool gets, relative to the tree
    source: str = ""  # the Debian source package when `name` is a label (a Windows build of it); else name

    @property
    def debian_source(self) -> str:
        return self.source or self.name


@dataclass(frozen=True)
class Defect:
    package: str
    file: str  # relative to the unpacked tree
    lines: tuple[int, ...]  # bookworm's line numbers of the lines the fix changed
    kind: str  # one of CLASSES
    model: str  # LP64 (aarch64) or LLP64 (MinGW)
    fix: str  # the upstream fix: a commit, a pull request or a bug
    why: str  # one line: why it breaks in the 64-bit model
    found_via: str  # one of FOUND_VIA
    defines: tuple[str, ...] = ()  # -D the defect needs to be compiled (a debug branch)
    miss: str = ""  # why portkit does not report it, when it does not (a person's reading)
    home: str = "ILP32"  # one of HOMES: the data model the code worked in

    @property
    def key(self) -> str:
        return f"{self.package}:{self.file}:{','.join(map(str, self.lines))}"


@dataclass(frozen=True)
class Recipe:
    packages: dict[str, Package]
    defects: tuple[Defect, ...]


def _text(entry: Mapping, field: str, where: str, *, required: bool = True) -> str:
    value = entry.get(field, None)
    if value is None:
        if required:
            raise RecipeError(f"{where}: '{field}' is missing")
        return ""
    if not isinstance(value, str) or not value.strip():
        raise RecipeError(f"{where}: '{field}' must be a non-empty string")
    return value.strip()


def _words(entry: Mapping, field: str, where: str) -> tuple[str, ...]:
    value = entry.get(field, [])
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise RecipeError(f"{where}: '{field}' must be a list of non-empty strings")
    return tuple(value)


def _package(name: str, entry: object) -> Package:
    where = f"package {name}"
    if not isinstance(entry, dict):
        raise RecipeError(f"{where}: must be a table")
    version = _text(entry, "version", where)
    if not _VERSION.match(version):
        raise RecipeError(f"{where}: '{version}' is not a Debian version")
    upstream = _text(entry, "upstream", where)
    if not _LINK.match(upstream):
        raise RecipeError(f"{where}: upstream '{upstream}' is not an https link")
    flags = _words(entry, "flags", where)
    odd = [f for f in flags if f.startswith("-") and not _FLAG.match(f)]
    if odd:
        raise RecipeError(f"{where}: flags may only say where headers are and what is defined, not {odd[0]}")
    source = _text(entry, "source", where, required=False)
    if source and not _SOURCE_NAME.match(source):
        raise RecipeError(f"{where}: source '{source}' is not a Debian source package name")
    return Package(name, version, upstream, _words(entry, "configure", where), flags, source)


def _relative(path: str, where: str) -> str:
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not path.endswith((".c", ".h")):
        raise RecipeError(f"{where}: file '{path}' must be a .c or .h path inside the tree")
    return pure.as_posix()


def _defect(index: int, entry: object, packages: Mapping[str, Package]) -> Defect:
    where = f"defect {index + 1}"
    if not isinstance(entry, dict):
        raise RecipeError(f"{where}: must be a table")
    package = _text(entry, "package", where)
    if package not in packages:
        raise RecipeError(f"{where}: package '{package}' has no [package.{package}] table")
    file = _relative(_text(entry, "file", where), where)
    where = f"{where} ({package} {file})"
    lines = entry.get("lines")
    if (
        not isinstance(lines, list)
        or not lines
        or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in lines)
    ):
        raise RecipeError(f"{where}: 'lines' must be a non-empty list of line numbers")
    if lines != sorted(set(lines)):
        raise RecipeError(f"{where}: 'lines' must be ascending, without repeats")
    kind = _text(entry, "class", where)
    if kind not in CLASSES:
        raise RecipeError(f"{where}: class '{kind}' is none of {', '.join(CLASSES)}")
    model = _text(entry, "model", where)
    if model not in MODELS:
        raise RecipeError(f"{where}: model '{model}' is neither LP64 nor LLP64")
    fix = _text(entry, "fix", where)
    if not _LINK.match(fix):
        raise RecipeError(f"{where}: fix '{fix}' is not an https link")
    why = _text(entry, "why", where)
    if "\n" in why:
        raise RecipeError(f"{where}: 'why' must be one line")
    found_via = _text(entry, "found_via", where)
    if found_via not in FOUND_VIA:
        raise RecipeError(f"{where}: found_via '{found_via}' is none of {', '.join(FOUND_VIA)}")
    defines = _words(entry, "defines", where)
    miss = _text(entry, "miss", where, required=False)
    home = _text(entry, "home", where, required=False) or "ILP32"
    if home not in HOMES:
        raise RecipeError(f"{where}: home '{home}' is neither ILP32 nor LP64")
    if home == model:
        raise RecipeError(f"{where}: home and model are both {model}: nothing moves")
    return Defect(package, file, tuple(lines), kind, model, fix, why, found_via, defines, miss, home)


def parse(text: str) -> Recipe:
    """The recipe in `text`, checked whole; RecipeError on the first problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RecipeError(f"not TOML: {err}") from None
    raw_packages = data.get("package", {})
    if not isinstance(raw_packages, dict) or not raw_packages:
        raise RecipeError("no [package.NAME] table")
    packages = {name: _package(name, entry) for name, entry in raw_packages.items()}
    raw_defects = data.get("defect", [])
    if not isinstance(raw_defects, list) or not raw_defects:
        raise RecipeError("no [[defect]] entry")
    defects = tuple(_defect(i, entry, packages) for i, entry in enumerate(raw_defects))
    seen: set[str] = set()
    for d in defects:
        if d.key in seen:
            raise RecipeError(f"defect {d.key} is listed twice")
        seen.add(d.key)
    unused = set(packages) - {d.package for d in defects}
    if unused:
        raise RecipeError(f"package {sorted(unused)[0]} has no defect")
    return Recipe(packages, defects)


def load(path: Path = RECIPE) -> Recipe:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecipeError(f"{path}: cannot read: {err}") from None
    try:
        return parse(text)
    except RecipeError as err:
        raise RecipeError(f"{path.name}: {err}") from None
