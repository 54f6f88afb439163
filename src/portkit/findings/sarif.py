"""Findings as SARIF 2.1.0 (OASIS), the format code-scanning services read
(docs/formats.md, "Findings ... in SARIF")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from portkit import __version__
from portkit.findings.baseline import SARIF_FINGERPRINT_KEY
from portkit.findings.model import Finding, Incomplete, Location, Rule
from portkit.findings.rules_doc import rule_help_markdown, rule_help_text
from portkit.findings.sources import SourceFile, SourceFiles, relative_to
from portkit.findings.triage import Triage

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"  # the working directory, where relative paths start


@dataclass(frozen=True)
class ArtifactRoot:
    """Where the findings' paths start when it is not the working directory:
    an image's root. SARIF names it by `base_id`; `uri` is a directory's
    file:// URI, None for an archive (then only the description says what it is)."""

    base_id: str  # "IMAGEROOT"
    uri: str | None
    description: str


def sarif_document(
    result: Triage,
    sources: SourceFiles,
    cwd: Path,
    root: ArtifactRoot | None = None,
    incomplete: Sequence[Incomplete] | None = None,
) -> dict[str, Any]:
    """The run's results; with `incomplete` (a command that tracks which
    inputs it checked completely) also its invocation: unsuccessful, with
    an error notification at each input not checked completely."""
    index = {rule.id: n for n, rule in enumerate(result.rules)}
    if root is None:
        bases: dict[str, Any] = {SOURCE_ROOT: {"uri": cwd.as_uri().rstrip("/") + "/"}}
    else:
        bases = {root.base_id: {"description": {"text": root.description}}}
        if root.uri is not None:
            bases[root.base_id]["uri"] = root.uri
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "portkit", "version": __version__, "rules": _rules(result.rules)}},
        "originalUriBaseIds": bases,
        # clang counts columns in bytes, which SARIF cannot express;
        # they are turned into characters through each file's text.
        "columnKind": "unicodeCodePoints",
        "results": [_result(s.finding, s.fingerprint, index[s.finding.rule], sources, cwd, root) for s in result.shown],
        "properties": {"suppressed": result.suppressed, "baselined": result.baselined},
    }
    if incomplete is not None:
        run["invocations"] = [_invocation(incomplete, sources, cwd, root)]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _invocation(
    incomplete: Sequence[Incomplete], sources: SourceFiles, cwd: Path, root: ArtifactRoot | None
) -> dict[str, Any]:
    invocation: dict[str, Any] = {"executionSuccessful": not incomplete}
    if incomplete:
        invocation["toolExecutionNotifications"] = [
            {
                "level": "error",
                "message": {"text": f"{item.path} was not checked completely: {item.reason}"},
                "locations": [{"physicalLocation": _physical(_where(item), sources.get(item.path), cwd, root)}],
            }
            for item in incomplete
        ]
    return invocation


def _where(item: Incomplete) -> Location:
    return Location(item.path, item.line, 0, item.line, 0)


def _rules(rules: list[Rule]) -> list[dict[str, Any]]:
    return [
        {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.why},
            "help": {"text": rule_help_text(rule), "markdown": rule_help_markdown(rule, level=2)},
            "defaultConfiguration": {"level": rule.severity.label},
            "properties": {"tags": [rule.family]},
        }
        for rule in rules
    ]


def _result(
    finding: Finding, fingerprint: str, rule_index: int, sources: SourceFiles, cwd: Path, root: ArtifactRoot | None
) -> dict[str, Any]:
    # No "fixes": a SARIF fix must be concrete artifactChanges (bytes to
    # replace), and a portkit fix is advice in words. It goes into the
    # message, where every viewer shows it, and into properties for machines.
    return {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": finding.severity.label,
        "message": {"text": f"{finding.message}\nFix: {finding.fix}"},
        "locations": [{"physicalLocation": _physical(finding.location, sources.get(finding.location.path), cwd, root)}],
        "partialFingerprints": {SARIF_FINGERPRINT_KEY: fingerprint},
        "properties": {"fix": finding.fix, "models": list(finding.models)},
    }


def _physical(where: Location, source: SourceFile | None, cwd: Path, root: ArtifactRoot | None) -> dict[str, Any]:
    if root is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": quote(where.path), "uriBaseId": root.base_id}}
        if where.line >= 1:
            physical.update(_regions(where, source))
        return physical
    path = relative_to(where.path, cwd)
    if path.startswith("/"):
        physical = {"artifactLocation": {"uri": Path(path).as_uri()}}
    else:
        physical = {"artifactLocation": {"uri": quote(path), "uriBaseId": SOURCE_ROOT}}
    if where.line >= 1:  # line 0: the file as a whole, no region
        physical.update(_regions(where, source))
    return physical


def _regions(where: Location, source: SourceFile | None) -> dict[str, Any]:
    """The region, its columns in characters and the text it covers, and the
    whole lines it lies on as the context region. Without the file's text the
    columns stay clang's bytes and there is no text."""
    end_line = max(where.end_line, where.line)
    # The lines it spans, when the file has them all (a location past the end is stale).
    lines = list(source.lines[where.line - 1 : end_line]) if source and end_line <= len(source.lines) else None

    def chars(line: str | None, byte_column: int) -> int:
        return source.char_index(line, byte_column) + 1 if source and line is not None else byte_column

    region: dict[str, Any] = {"startLine": where.line}
    if where.column:
        start = chars(lines[0] if lines else None, where.column)
        if end_line > where.line and where.end_column:
            end = chars(lines[-1] if lines else None, where.end_column)
        elif end_line == where.line and where.end_column > where.column:
            end = max(chars(lines[0] if lines else None, where.end_column), start + 1)
        else:  # no end: one character, as the caret shows
            end_line, end = where.line, start + 1
        region.update(startColumn=start, endLine=end_line, endColumn=end)
    else:
        region["endLine"] = end_line
    if lines is None:
        return {"region": region}
    lines = lines[: end_line - where.line + 1]
    covered = "\n".join(lines)
    if where.column:
        covered = covered[start - 1 : len(covered) - len(lines[-1]) + end - 1]
    region["snippet"] = {"text": covered}
    context = {"startLine": where.line, "endLine": end_line, "snippet": {"text": "\n".join(lines)}}
    return {"region": region, "contextRegion": context}
