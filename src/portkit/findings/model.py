"""Rules, locations and findings: what every command that reports findings
(scan, audit) shares, and how a finding reads and writes as JSON."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from portkit.core.errors import BadInput


class Severity(IntEnum):
    """How bad a finding is; the names are also SARIF's levels."""

    NOTE = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Severity:
        try:
            return cls[label.upper()]
        except KeyError:
            raise ValueError(f"'{label}' is not a severity (note, warning, error)") from None


@dataclass(frozen=True)
class Rule:
    """One check, documented in the fixed parts of the rules page. The texts
    are Markdown (wrap code in backticks); wrong and right are examples in
    `language` (C unless a command says otherwise: a kernel config is "kconfig",
    an image audit a shell session)."""

    id: str  # "PK101"
    name: str  # kebab-case: "pointer-to-narrower-int"
    severity: Severity  # the default severity of its findings
    family: str  # a short title: "Pointers and integers"
    summary: str  # one line: what it finds
    why: str  # why it is bad, a few sentences
    wrong: str  # C code that it flags
    right: str  # the same code, fixed
    fix: str  # the concrete fix, one or two sentences
    language: str = "c"  # of wrong and right, for the rules page's code fences


@dataclass(frozen=True)
class Location:
    """Where a finding is: 1-based lines and columns, columns in bytes as
    clang reports them; end_column is one past the last byte (clang's extent
    end, SARIF's endColumn). Line 0 is the file as a whole (an ELF image),
    column 0 a line without a column."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }

    @classmethod
    def from_json(cls, data: object) -> Location:
        fields = _object(data, "location")
        numbers = [_field(fields, name, int, "location") for name in ("line", "column", "end_line", "end_column")]
        if any(isinstance(n, bool) or n < 0 for n in numbers):
            raise BadInput("location: lines and columns are whole numbers from 0")
        return cls(_field(fields, "path", str, "location"), *numbers)


@dataclass(frozen=True)
class Finding:
    """One problem found: the rule's id, the severity it has here, where, a
    message naming the types and both data models, the concrete fix, and the
    data models compared (from, to), e.g. ("ILP32 (arm)", "LP64 (aarch64)");
    empty when no two models are compared (an audit)."""

    rule: str
    severity: Severity
    location: Location
    message: str
    fix: str
    models: tuple[str, str] | tuple[()] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity.label,
            "location": self.location.to_json(),
            "message": self.message,
            "fix": self.fix,
            "models": list(self.models),
        }

    @classmethod
    def from_json(cls, data: object) -> Finding:
        """The finding a document holds; other fields there (its fingerprint) are not part of it."""
        fields = _object(data, "finding")
        try:
            severity = Severity.from_label(_field(fields, "severity", str, "finding"))
        except ValueError as err:
            raise BadInput(f"finding: {err}") from None
        models = _field(fields, "models", list, "finding")
        if len(models) not in (0, 2) or not all(isinstance(m, str) for m in models):
            raise BadInput("finding: models is [] or two names")
        return cls(
            rule=_field(fields, "rule", str, "finding"),
            severity=severity,
            location=Location.from_json(fields.get("location")),
            message=_field(fields, "message", str, "finding"),
            fix=_field(fields, "fix", str, "finding"),
            models=tuple(models),  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class Incomplete:
    """An input the command could not check completely: a file whose parse
    stopped at a missing #include, or that was not parsed at all. Its absence
    of findings proves nothing, so it fails the run like an error (--fail-on)
    and SARIF marks the run unsuccessful. `line`: where checking stopped in
    `path` (0: the file as a whole)."""

    path: str
    reason: str  # "config.h not found"
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "reason": self.reason}

    def __str__(self) -> str:
        """`a.c (config.h not found)`: how a summary names it."""
        return f"{self.path} ({self.reason})"


def _object(data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadInput(f"{what}: not a JSON object")
    return data


def _field(fields: dict[str, Any], name: str, kind: type, what: str) -> Any:
    value = fields.get(name)
    if not isinstance(value, kind):
        raise BadInput(f"{what}: '{name}' missing or not a {kind.__name__}")
    return value
