"""scan's rules as data (id, name, severity, the texts), without importing
their checks: the process that parses the options (--select, --ignore,
--help) and writes the report needs only this, and importing the rules
imports the whole engine (a tenth of a second before the first parse).

The data comes from the rule files themselves (rules/, each file's RULE):
imported once, then kept in $XDG_CACHE_HOME/portkit/rules under a key made
of portkit's version and the name, size and modification time of every file
in rules/. A rule file added, removed or edited is a new key; a cache that
cannot be read or written costs only the import."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import portkit
from portkit.core.errors import BadInput
from portkit.core.output import write_atomically
from portkit.findings.model import Rule, Severity

SCHEMA = "portkit.scan-rules/1"
RULES_DIRECTORY = Path(__file__).parent / "rules"


def scan_rules(cache_root: Path) -> tuple[Rule, ...]:
    """Every scan rule, in the order rules/ gives them."""
    key = rules_key(RULES_DIRECTORY)
    path = cache_root / "rules" / f"{key}.json"
    kept = read_rules(path) if key else None
    if kept is not None:
        return kept
    from portkit.commands.scan.rules import RULES  # the engine: only when nothing is kept

    if key:
        keep_rules(path, RULES)
    return RULES


def rules_key(directory: Path) -> str:
    """What changes when a rule file is added, removed or rewritten ('' when
    the directory cannot be read: then nothing is kept)."""
    digest = hashlib.blake2b(portkit.__version__.encode(), digest_size=20)
    try:
        with os.scandir(directory) as entries:
            files = sorted((e.name, e.stat()) for e in entries if e.name.endswith(".py"))
    except OSError:
        return ""
    for name, st in files:
        digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
    return digest.hexdigest()


def read_rules(path: Path) -> tuple[Rule, ...] | None:
    """The rules kept at path, or None when there are none of this shape."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry["schema"] != SCHEMA or not entry["rules"]:
            return None
        if not all(isinstance(value, str) for fields in entry["rules"] for value in fields.values()):
            return None
        return tuple(Rule(**{**fields, "severity": Severity[fields["severity"]]}) for fields in entry["rules"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # absent, unreadable, or written by another portkit: imported again


def keep_rules(path: Path, rules: tuple[Rule, ...]) -> None:
    fields = [{**dataclasses.asdict(rule), "severity": rule.severity.name} for rule in rules]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps({"schema": SCHEMA, "rules": fields}), "the rules cache")
    except (OSError, BadInput):
        pass  # not kept: the next run imports the rules again
