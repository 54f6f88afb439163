"""The areas judged by findings (code: scan; image: audit rootfs; kernel:
audit kconfig): every finding of the documents given, the inputs not checked
completely, each with its fix. Which of them decide the verdict is --fail-on's
choice, as in the commands themselves."""

from __future__ import annotations

from typing import Any

from portkit.commands.report.model import Source
from portkit.core.errors import BadInput
from portkit.core.output import count
from portkit.findings.model import Finding

INCOMPLETE_FIX = (
    "Let the file parse to its end: give the build's flags (-p BUILD_DIR with its compile_commands.json) "
    "or run ./configure first, so that the headers it includes exist; its findings may be missing until then."
)


def check(document: dict, label: str) -> None:
    """Refuses a findings document the report could not rely on, in one line."""
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise BadInput(f"{label}: a {document.get('schema')} document without findings[]")
    for index, finding in enumerate(findings):
        try:
            Finding.from_json(finding)
        except BadInput as err:
            raise BadInput(f"{label}: findings[{index}]: {err}") from None
        if not isinstance(finding.get("fingerprint"), str):
            raise BadInput(f"{label}: findings[{index}]: no fingerprint")
    for name in ("rules", "incomplete"):
        listed = document.get(name, [])
        if not isinstance(listed, list) or not all(isinstance(x, dict) for x in listed):
            raise BadInput(f"{label}: {name} is not a list of objects")
    for index, item in enumerate(document.get("incomplete", [])):
        if not isinstance(item.get("path"), str) or not isinstance(item.get("reason"), str):
            raise BadInput(f"{label}: incomplete[{index}]: path and reason are strings")


def items(index: int, source: Source) -> list[dict[str, Any]]:
    document = source.document
    rules = {r.get("id"): r for r in document.get("rules", [])}
    found = []
    for finding in document["findings"]:
        rule = rules.get(finding["rule"], {})
        location = finding["location"]
        found.append(
            {
                "key": finding["fingerprint"],
                "source": index,
                "severity": finding["severity"],
                "group": finding["rule"],
                "title": str(rule.get("name") or finding["rule"]),
                "where": where(location["path"], location["line"], location["column"]),
                "message": finding["message"],
                "fix": finding["fix"],
            }
        )
    for item in document.get("incomplete", []):
        found.append(
            {
                "key": f"incomplete:{item['path']}",
                "source": index,
                "severity": "error",
                "group": "incomplete",
                "title": "not checked completely",
                "where": where(item["path"], item.get("line") or 0, 0),
                "message": f"{item['path']} was not checked completely: {item['reason']}",
                "fix": INCOMPLETE_FIX,
            }
        )
    return found


def where(path: str, line: int, column: int) -> str:
    """`path:line:column`, `path:line`, or the path alone (line 0: the file as a whole)."""
    return ":".join([path, *(str(n) for n in (line, column) if n)]) if line else path


def summary(source: Source) -> str:
    """One line: what the document covered, and what it found."""
    document = source.document
    counts = {"error": 0, "warning": 0, "note": 0}
    for finding in document["findings"]:
        counts[finding["severity"]] += 1
    total = sum(counts.values())
    found = count(total, "finding") + (
        " (" + ", ".join(count(n, s) for s, n in counts.items() if n) + ")" if total else ""
    )
    incomplete = document.get("incomplete", [])
    if incomplete:
        found += f"; {count(len(incomplete), 'file')} not checked completely"
    return f"{_covered(document)}: {found}" if _covered(document) else found


def _covered(document: dict) -> str:
    """What the command looked at, from its own fields (absent in SARIF)."""
    models, image, config = document.get("models"), document.get("image"), document.get("config")
    if isinstance(models, dict) and isinstance(document.get("inputs"), int):
        source, target = models.get("from") or {}, models.get("to") or {}
        return (
            f"{count(document['inputs'], 'file')} scanned for {source.get('data_model')} ({source.get('name')}) "
            f"-> {target.get('data_model')} ({target.get('name')})"
        )
    if isinstance(image, dict):
        files = (document.get("files") or {}).get("elf")
        target = (document.get("target") or {}).get("label")
        return ", ".join(
            str(x) for x in (image.get("path"), files is not None and count(files, "ELF file"), target) if x
        )
    if isinstance(config, dict):
        kernel = document.get("kernel") or {}
        checked = (document.get("summary") or {}).get("checked")
        words = [str(config.get("path")), f"Linux {kernel.get('version') or '?'} {kernel.get('arch') or '?'}"]
        if checked is not None:
            words.append(f"{count(checked, 'rule')} checked")
        return ", ".join(words)
    return ""
