"""Saved results given as operands: which area each belongs to, found from
its content (a portkit document's schema, portkit's SARIF, a latency study
or directory of results, cyclictest or rtla output), checked enough that the
verdicts can rely on it. Anything else is one error line naming the file."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from portkit.commands.report import findings_area, layouts, target_area
from portkit.commands.report.latency import Latency
from portkit.commands.report.model import SCHEMA, Source
from portkit.commands.rt.study_file import STUDY
from portkit.core.documents import parse_json
from portkit.core.errors import BadInput
from portkit.core.output import warn

MAX_BYTES = 256 * 1024 * 1024  # as rt import's limit: a scan of a whole distribution is far less
AREA_OF_SCHEMA = {
    "portkit.scan/1": "code",
    "portkit.layout/1": "layouts",
    "portkit.audit-rootfs/1": "image",
    "portkit.audit-kconfig/1": "kernel",
    "portkit.cpu/1": "target",
    "portkit.vdso/2": "target",
    "portkit.vdso-verify/2": "target",
    "portkit.vdso-bench/2": "target",
    "portkit.rt-sysinfo/1": "target",
    "portkit.rt/1": "latency",
    "portkit.rt-study/1": "latency",
}
# Documents of portkit that answer no question of the report, and what to give instead.
NOT_FOR_REPORT = {
    "portkit.report": "an earlier report: give it as --baseline FILE to compare",
    "portkit.rt-table": "a table of a study: give the study's directory or its results instead",
    "portkit.rt-compare": "a comparison: give each study's directory instead",
    "portkit.rt-import": "the list of what rt import wrote: give its directory (-o DIR) instead",
    "portkit.rt-plots": "a list of pictures: give the study's directory instead",
    "portkit.load": "one load's own report: give the study's directory instead",
    "portkit.kconfig": "a config as the agent read it: give `portkit audit kconfig`'s result instead",
    "portkit.rules": "a list of rules, not a result",
}
SARIF_AREAS = (("PKR", "image", "portkit.audit-rootfs/1"), ("PKK", "kernel", "portkit.audit-kconfig/1"))
NOT_A_RESULT = (
    "not a result portkit report reads (a portkit --format json document, portkit's SARIF, a latency study or "
    "directory of results, cyclictest or rtla output); a source tree is --source, headers --headers, "
    "an image --rootfs, a kernel config --kconfig"
)


def read_saved(path: Path) -> list[Source]:
    """The sources one operand holds (a file of several cyclictest runs: one)."""
    if path.is_dir():
        return [Source("latency", str(path), "file", "latency study", Latency.from_directory(path))]
    data = _read(path)
    text = data.decode("utf-8", "replace")
    if text.lstrip().startswith("{"):
        document = parse_json(text, str(path))
        if isinstance(document, dict) and isinstance(document.get("schema"), str):
            return [_by_schema(path, document, document["schema"])]
        if isinstance(document, dict) and isinstance(document.get("cell"), dict) and "rt" in document:
            return [Source("latency", str(path), "file", "portkit rt study cell", Latency.from_results(path))]
        if isinstance(document, dict) and isinstance(document.get("runs"), list) and "version" in document:
            return [_sarif(path, document)]
    return [_imported(path, text)]


def _read(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise BadInput(f"{path}: {size} bytes, more than a result ({MAX_BYTES} at most)")
        return path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file or directory") from None
    except OSError as err:
        raise BadInput(f"{path}: cannot read it ({err.strerror})") from None


def _by_schema(path: Path, document: dict, schema: str) -> Source:
    area = AREA_OF_SCHEMA.get(schema)
    kind = schema.partition("/")[0]
    if area is None:
        if kind in NOT_FOR_REPORT:
            raise BadInput(f"{path}: {NOT_FOR_REPORT[kind]}")
        same_kind = [s for s in AREA_OF_SCHEMA if s.partition("/")[0] == kind]
        if same_kind:
            raise BadInput(f"{path}: a {schema} document; this portkit reads {same_kind[0]}")
        if schema == SCHEMA or kind.startswith("portkit."):
            raise BadInput(f"{path}: a {schema} document, which no area of the report reads")
        raise BadInput(f"{path}: {NOT_A_RESULT}")
    if area == "latency":
        if schema == "portkit.rt-study/1":
            if path.name != STUDY:
                raise BadInput(f"{path}: a study's description ({STUDY} names it); give the study's directory")
            return Source(area, str(path.parent), "file", schema, Latency.from_directory(path.parent))
        return Source(area, str(path), "file", schema, Latency.from_results(path))
    check = {"layouts": layouts.check, "target": target_area.check}.get(area, findings_area.check)
    check(document, str(path))
    return Source(area, str(path), "file", schema, document)


def _sarif(path: Path, document: dict) -> Source:
    """portkit's SARIF as the findings document it was made from."""
    try:
        run = document["runs"][0]
        driver = run["tool"]["driver"]
    except (KeyError, IndexError, TypeError):
        raise BadInput(f"{path}: SARIF without runs[0].tool.driver") from None
    if driver.get("name") != "portkit":
        raise BadInput(
            f"{path}: SARIF from {driver.get('name')!r}; portkit report reads portkit's own "
            "(scan, audit rootfs, audit kconfig)"
        )
    try:
        rules = [
            {
                "id": r["id"],
                "name": r.get("name", ""),
                "summary": r.get("shortDescription", {}).get("text", ""),
                "family": (r.get("properties", {}).get("tags") or [""])[0],
                "severity": r.get("defaultConfiguration", {}).get("level", "warning"),
            }
            for r in driver.get("rules", [])
        ]
        findings = [_sarif_finding(result) for result in run.get("results", [])]
        incomplete = [
            _sarif_incomplete(n) for i in run.get("invocations", []) for n in i.get("toolExecutionNotifications", [])
        ]
    except (KeyError, IndexError, TypeError, AttributeError) as err:
        raise BadInput(f"{path}: SARIF that portkit did not write as it writes it (no {err})") from None
    ids = [r["id"] for r in rules] + [f["rule"] for f in findings]
    area, schema = "code", "portkit.scan/1"
    for prefix, that_area, that_schema in SARIF_AREAS:
        if ids and all(i.startswith(prefix) for i in ids):
            area, schema = that_area, that_schema
    converted = {"schema": schema, "findings": findings, "rules": rules, "incomplete": incomplete}
    findings_area.check(converted, str(path))
    return Source(area, str(path), "file", f"SARIF {document.get('version')} ({schema})", converted)


def _sarif_finding(result: dict) -> dict:
    text = result["message"]["text"]
    message, _, fix = text.partition("\nFix: ")
    location = result.get("locations", [{}])[0].get("physicalLocation", {})
    region = location.get("region", {})
    line, column = region.get("startLine", 0), region.get("startColumn", 0)
    return {
        "rule": result["ruleId"],
        "severity": result.get("level", "warning"),
        "location": {
            "path": _sarif_path(location.get("artifactLocation", {}).get("uri", "")),
            "line": line,
            "column": column,
            "end_line": region.get("endLine", line),
            "end_column": region.get("endColumn", column),
        },
        "message": message,
        "fix": result.get("properties", {}).get("fix") or fix,
        "models": list(result.get("properties", {}).get("models") or []),
        "fingerprint": result["partialFingerprints"]["portkitLineHash/v1"],
    }


def _sarif_incomplete(notification: dict) -> dict:
    location = (notification.get("locations") or [{}])[0].get("physicalLocation", {})
    path = _sarif_path(location.get("artifactLocation", {}).get("uri", ""))
    text = notification["message"]["text"]
    reason = text.split(" was not checked completely: ", 1)[-1]
    return {"path": path, "line": location.get("region", {}).get("startLine", 0), "reason": reason}


def _sarif_path(uri: str) -> str:
    """The path a SARIF location names: relative as written, a file:// URI as its path."""
    if uri.startswith("file:"):
        return unquote(urlparse(uri).path)
    return unquote(uri)


def _imported(path: Path, text: str) -> Source:
    """cyclictest's or rtla's own output, read by `portkit rt import`'s readers."""
    from portkit.commands.rt.importers import import_file
    from portkit.commands.rt.importers.detect import detect

    try:
        detect(text, str(path))
    except BadInput:
        raise BadInput(f"{path}: {NOT_A_RESULT}") from None
    result = import_file(path)  # a damaged file: its reader's line names where
    for problem in result.problems:
        warn(problem)
    tool = result.documents[0].get("source", {}).get("tool", "cyclictest") if result.documents else "cyclictest"
    return Source("latency", str(path), "file", f"{tool} output", Latency.from_import(path, result.documents))
