"""Fingerprints and --baseline FILE: findings already known (listed in a
previous document of the same command) are hidden, even after the lines
around them moved.

A fingerprint is sha256 over the rule id, the file (relative to the working
directory), the finding's source line with its whitespace collapsed, and the
finding's index among those with the same three in file order. Code added
above or reindented keeps it; editing the line itself, or the same rule on an
identical line appearing before it in the file, changes it. A finding without
a source line (line 0, or a file that cannot be read) uses its message in
place of the line."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.core.documents import read_json_file
from portkit.core.errors import BadInput
from portkit.findings.model import Finding
from portkit.findings.sources import SourceFiles, relative_to

# The key under SARIF's partialFingerprints (versioned, as SARIF advises).
SARIF_FINGERPRINT_KEY = "portkitLineHash/v1"

_SCHEMA = re.compile(r"portkit\.[a-z0-9-]+/[0-9]+")


def fingerprints(findings: Sequence[Finding], sources: SourceFiles, cwd: Path) -> list[str]:
    """One fingerprint per finding, in order; `findings` must be in file order."""
    occurrences: Counter[tuple[str, str, str]] = Counter()
    result = []
    for finding in findings:
        source = sources.get(finding.location.path)
        line = source.line(finding.location.line) if source else None
        text = " ".join(line.split()) if line is not None else finding.message
        identity = (finding.rule, relative_to(finding.location.path, cwd), text)
        parts = (*identity, str(occurrences[identity]))
        occurrences[identity] += 1
        # surrogatepass: a path from os.fsdecode may hold lone surrogates (undecodable bytes)
        result.append(hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest())
    return result


@dataclass(frozen=True)
class Baseline:
    path: str
    schema: str
    fingerprints: frozenset[str]


def read_baseline(path: str) -> Baseline:
    """An argparse type: the fingerprints of a findings document, or one line saying why it is not one."""
    where = f"--baseline {path}"
    document = read_json_file(path, where)
    schema = document.get("schema") if isinstance(document, dict) else None
    if not isinstance(schema, str) or not _SCHEMA.fullmatch(schema):
        raise BadInput(f'{where}: not a portkit document (no "schema": "portkit.<kind>/<major>")')
    listed = document.get("findings")
    if not isinstance(listed, list) or not all(
        isinstance(f, dict) and isinstance(f.get("fingerprint"), str) for f in listed
    ):
        raise BadInput(f"{where}: a {schema} document without findings and their fingerprints")
    return Baseline(path, schema, frozenset(f["fingerprint"] for f in listed))
