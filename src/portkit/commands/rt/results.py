"""Reading results back: a study directory (`study.json` and its cells), a
directory of results (what `portkit rt import -o DIR` wrote), a cell file, or
a single `portkit.rt/1` document (the agent's own, or one that `portkit rt
import` made from cyclictest or rtla output)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from portkit.commands.rt.study import SCHEMA_RT
from portkit.commands.rt.study_file import CELLS, SCHEMA_STUDY, STUDY
from portkit.core.errors import BadInput
from portkit.core.target import emulated, emulation_note


@dataclass(frozen=True)
class Results:
    label: str  # the path as given: what compare calls it
    title: str  # the path, the target and its kernel: what a table or plot is headed with
    emulated: bool  # measured under qemu-user or in a VM
    cells: list[tuple[str, dict]]  # (cell name, document)
    target: str = ""  # the --target spec it was measured on

    def heading(self) -> list[str]:
        note = emulation_note({"target": self.target}) if self.emulated else None
        if note and self.target.startswith("qemu-"):
            note += " (plumbing only)"  # the kernel measured is this host's, not the target's
        return [self.title, *([note] if note else [])]


def read_results(path: Path) -> Results:
    """The cells of a study directory, a directory of results, or a result file."""
    if path.is_dir() and not (path / STUDY).exists():
        return _results_directory(path)
    if path.is_dir():
        study = _json(path / STUDY)
        if study.get("schema") != SCHEMA_STUDY:
            raise BadInput(f"{path / STUDY}: not a portkit rt study (schema {study.get('schema')!r})")
        found = []
        for name in study.get("cells", []):
            cell = path / CELLS / f"{name}.json"
            if cell.exists():
                found.append((name, _json(cell)))
        if not found:
            raise BadInput(f"{path}: no measured cells yet (portkit rt run -o {path} measures them)")
        target = study.get("target") or ""
        return Results(str(path), _title(path, study), emulated(target), found, target)
    document = _json(path)
    rt = document.get("rt", document)
    if rt.get("schema") != SCHEMA_RT:
        raise BadInput(f"{path}: not a portkit rt result (schema {rt.get('schema')!r})")
    # a study's cell says its target
    target = str(document.get("target") or "")
    return Results(str(path), str(path), emulated(target), [(path.stem, document)], target)


def _results_directory(path: Path) -> Results:
    """Every result file in a directory that holds no study, by name."""
    found = []
    for file in sorted(path.glob("*.json")):
        document = _json(file)
        if document.get("rt", document).get("schema") == SCHEMA_RT:
            found.append((file.stem, document))
    if not found:
        raise BadInput(f"{path}: neither a study ({STUDY}) nor any portkit rt result (*.json)")
    return Results(str(path), str(path), False, found)


def _json(path: Path) -> dict:
    try:
        document = json.loads(path.read_text())
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise BadInput(f"{path}: not a portkit rt result ({err})") from None
    if not isinstance(document, dict):
        raise BadInput(f"{path}: not a portkit rt result (a JSON object is expected)")
    return document


def _title(path: Path, study: dict) -> str:
    info = study.get("sysinfo") or {}
    kernel = info.get("kernel", {}).get("release") if isinstance(info.get("kernel"), dict) else info.get("release")
    parts = [str(path), study.get("target")]
    if kernel:
        parts.append(f"kernel {kernel}")
    return ", ".join(p for p in parts if p)
