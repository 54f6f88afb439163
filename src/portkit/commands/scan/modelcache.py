"""The data models' type sizes kept between runs, in $XDG_CACHE_HOME/portkit/models
(else ~/.cache/portkit/models): probing them parses the C library's headers
once per ABI, a fixed 0.1-0.3 s of every scan, while they change only when
the toolchain does.

An entry is found by everything the probe is asked with: its text, the ABI,
the sysroot, the include directories the parse searches, libclang's file and
the code that reads the answer. It is used only while every header the probe
read is the file it was (inode, size, times) and every directory a header was
or could have been found in is as it was (a header added to or removed from
a directory changes that directory's times). Anything else probes again and
replaces the entry; a cache that cannot be read or written only costs the probe.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import portkit
from portkit.core.abis import Abi
from portkit.core.errors import BadInput
from portkit.core.output import write_atomically

SCHEMA = "portkit.scan-models/1"
# A file system's clock for ctime lags time.time_ns() by up to a tick: a change
# this close to the probe's start may have come after the probe read the file.
CLOCK_SLACK_NS = 30_000_000


@dataclass(frozen=True)
class Probed:
    """What one probe found, and every header it read to find it."""

    builtins: dict[str, int]
    typedefs: dict[str, int]
    headers: tuple[str, ...]


def models_directory(cache_root: Path) -> Path:
    return cache_root / "models"


def entry_key(identity: Sequence[object]) -> str:
    return hashlib.blake2b(json.dumps(list(identity)).encode(), digest_size=20).hexdigest()


def probe_identity(abi: Abi, sysroot: Path | None, probe_text: str, search: Sequence[str], library: str) -> list:
    """What decides a probe's answer, besides the files it reads: the code that
    asks and reads (portkit's version, the models' modules and the parse's), the probe, the
    ABI, the sysroot, the directories searched, and libclang's file as it is now."""
    code = hashlib.blake2b(digest_size=20)
    package = Path(__file__).parents[2]
    for module in ("commands/scan/models.py", "commands/scan/modelcache.py", "cparse/parse.py"):
        code.update((package / module).read_bytes())  # parse.py: the arguments the probe is parsed with
    return [
        SCHEMA,
        portkit.__version__,
        code.hexdigest(),
        probe_text,
        [abi.name, abi.triple, abi.clang_triple, abi.data_model, list(abi.flags)],
        str(sysroot or ""),
        list(search),
        [library, _stat(library)],
    ]


def _stat(path: str) -> list[int] | None:
    """What changes when a file or directory is replaced, rewritten or gains or loses an entry."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def watched_paths(headers: Iterable[str], search: Sequence[str], probed_names: Iterable[str]) -> list[str]:
    """Every header read, and every directory the preprocessor looked in or
    could have: each include directory joined with each subdirectory a header
    was found in or asked for (`sys`, `bits`, `asm-generic`) and their parents,
    so that a header appearing earlier in the search is seen."""
    roots = sorted((os.path.normpath(d) for d in search), key=len, reverse=True)
    subdirectories = {""}
    files = []
    for header in headers:
        header = os.path.normpath(header)
        files.append(header)
        root = next((r for r in roots if header.startswith(r + os.sep)), None)
        if root is None:
            files.append(os.path.dirname(header))  # outside the search: its own directory
            continue
        subdirectories.add(os.path.dirname(os.path.relpath(header, root)))
    subdirectories |= {os.path.dirname(name) for name in probed_names}
    for sub in list(subdirectories):
        while sub:
            sub = os.path.dirname(sub)
            subdirectories.add(sub)
    directories = [os.path.normpath(os.path.join(r, s)) for r in roots for s in sorted(subdirectories)]
    return sorted(set(files)) + sorted(set(directories))


def lookup(directory: Path, key: str) -> Probed | None:
    """The kept answer, when every path it watches is as it was; else None."""
    try:
        entry = json.loads((directory / f"{key}.json").read_text(encoding="utf-8"))
        watched = entry["watched"]
        if entry["schema"] != SCHEMA or not isinstance(watched, dict) or not watched:
            return None
        if any(_stat(path) != state for path, state in watched.items()):
            return None
        builtins, typedefs = entry["builtins"], entry["typedefs"]
        if not builtins or not _sizes(builtins) or not _sizes(typedefs):
            return None
        return Probed(builtins, typedefs, tuple(entry["headers"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent, unreadable or of another shape: probed again


def _sizes(table: object) -> bool:
    return isinstance(table, dict) and all(isinstance(k, str) and type(v) is int for k, v in table.items())


def store(directory: Path, key: str, probed: Probed, watched: Sequence[str], started_ns: int) -> None:
    """Keeps the answer with the state of what it watches; a cache that
    cannot be written is no error (the next run probes again). A path that
    changed since the probe started (its ctime) may have been read before or
    after the change: nothing is kept."""
    if not probed.builtins:  # the probe did not parse: nothing to keep
        return
    states = {path: _stat(path) for path in watched}
    if any(state is not None and state[3] >= started_ns - CLOCK_SLACK_NS for state in states.values()):
        return
    entry = {
        "schema": SCHEMA,
        "builtins": probed.builtins,
        "typedefs": probed.typedefs,
        "headers": list(probed.headers),
        "watched": states,
    }
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_atomically(directory / f"{key}.json", json.dumps(entry), "the models cache")
    except (OSError, BadInput):
        pass


def kept_or_probed(
    directory: Path | None,
    identity: Sequence[object],
    search: Sequence[str],
    probed_names: Iterable[str],
    probe: Callable[[], Probed],
) -> Probed:
    """The answer kept for this identity if nothing it came from has changed,
    else probe() (kept for the next run). None directory: always probe."""
    if directory is None:
        return probe()
    key = entry_key(identity)
    kept = lookup(directory, key)
    if kept is not None:
        return kept
    started_ns = time.time_ns()
    probed = probe()
    store(directory, key, probed, watched_paths(probed.headers, search, probed_names), started_ns)
    return probed
