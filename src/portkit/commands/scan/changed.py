"""`--changed-since REV`: a pull request's findings only. Every unit is still
scanned (the cache makes the unchanged ones cheap), but only findings in
files git names as changed since REV are shown, and in the sources whose
included headers changed: a header's edit can break the code that
includes it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.commands.scan.messages import shown_path
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.output import count
from portkit.cparse.inputs import is_c_or_cxx
from portkit.findings.model import Finding, Incomplete

GIT_TIMEOUT = 120.0  # seconds for one git command on a large repository


@dataclass(frozen=True)
class Changes:
    """What changed since a revision: the files themselves, absolute and real."""

    revision: str
    files: frozenset[str]

    def affected(self, headers_of: Mapping[str, Iterable[str]]) -> frozenset[str]:
        """The changed files, and every unit (real path -> the headers it read)
        one of whose headers changed."""
        units = {unit for unit, headers in headers_of.items() if any(_real(h) in self.files for h in headers)}
        return self.files | units

    def to_json(self, affected: frozenset[str]) -> dict:
        """The document's `changed_since`: the revision, the C and C++ files
        changed, and the sources shown because a header they include changed."""
        changed = sorted(shown_path(f) for f in self.files if is_c_or_cxx(f))
        through = sorted(shown_path(f) for f in affected - self.files)
        return {"revision": self.revision, "changed": changed, "through_headers": through}

    def keep(
        self, findings: Sequence[Finding], incomplete: Sequence[Incomplete], affected: frozenset[str]
    ) -> tuple[list[Finding], list[Incomplete]]:
        """The findings and incomplete units in affected files."""
        return (
            [f for f in findings if _real(f.location.path) in affected],
            [i for i in incomplete if _real(i.path) in affected],
        )


def changes_header(header: Callable[[dict], list[str]]) -> Callable[[dict], list[str]]:
    """The scan's header, and under it which files the findings are limited to."""

    def with_changes(document: dict) -> list[str]:
        lines = header(document)
        changes = document["changed_since"]
        files = count(len(changes["changed"]), "C/C++ file")
        scope = f"findings only in files changed since {changes['revision']}: {files}"
        if changes["through_headers"]:
            scope += f", and {count(len(changes['through_headers']), 'file')} including a changed header"
        return [*lines[:-1], scope, *lines[-1:]]

    return with_changes


def changes_since(revision: str, where: Path | None = None) -> Changes:
    """The files `git diff --name-only REVISION` names (the working tree
    against REVISION: commits since, staged and unstaged edits) and files git
    does not track yet, in the repository around `where` (the working
    directory)."""
    cwd = where or Path.cwd()
    top = _git(["rev-parse", "--show-toplevel"], cwd, revision).strip()
    _git(["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], cwd, revision)
    names = _git(["diff", "--name-only", "-z", revision, "--"], Path(top), revision).split("\0")
    names += _git(["ls-files", "--others", "--exclude-standard", "-z"], Path(top), revision).split("\0")
    return Changes(revision, frozenset(_real(os.path.join(top, n)) for n in names if n))


def _git(arguments: list[str], cwd: Path, revision: str) -> str:
    try:
        proc = subprocess.run(
            ["git", *arguments], cwd=cwd, capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False
        )
    except FileNotFoundError:
        raise EnvironmentProblem("--changed-since needs git, not on PATH", hint="apt-get install git") from None
    except subprocess.TimeoutExpired:
        raise EnvironmentProblem(f"--changed-since {revision}: git took longer than {GIT_TIMEOUT:g} s") from None
    if proc.returncode != 0:
        if arguments[0] == "rev-parse" and arguments[1] == "--show-toplevel":
            raise BadInput(f"--changed-since {revision}: {cwd.resolve()} is not in a git repository")
        if arguments[:2] == ["rev-parse", "--verify"]:
            raise BadInput(f"--changed-since {revision}: git knows no such revision")
        reason = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise BadInput(f"--changed-since {revision}: git {arguments[0]}: {reason}")
    return proc.stdout


def _real(path: str) -> str:
    return os.path.realpath(path)
