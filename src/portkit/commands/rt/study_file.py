"""A study's directory on disk (docs/formats.md, "portkit.rt-study/1"):
`study.json` says what every cell is measured with, `cells/` holds a file
per cell. A study goes on only with the options it was measured with; the
refusal names each option that differs, with both values."""

from __future__ import annotations

import json
from pathlib import Path

from portkit.core.errors import BadInput
from portkit.core.output import write_atomically

STUDY = "study.json"
CELLS = "cells"
PLOTS = "plots"  # where `portkit rt plot DIR` draws by default
SCHEMA_STUDY = "portkit.rt-study/1"
PLOT_NAMES = ("histogram-*", "loops-*", "box-*")


def read(directory: Path) -> dict | None:
    """The study.json of directory, None when there is none."""
    path = directory / STUDY
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise BadInput(f"{path}: cannot read it ({err.strerror})") from None
    try:
        document = json.loads(text)
    except ValueError:
        raise BadInput(f"{path}: not a portkit study (invalid JSON)") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA_STUDY:
        raise BadInput(f"{path}: not a portkit rt study")
    return document


def write(directory: Path, description: dict) -> None:
    write_atomically(directory / STUDY, json.dumps(description, indent=1) + "\n")


def differences(earlier: dict, now: dict) -> list[str]:
    """Each option that differs, as `--loops 100 (this run: --loops 300)`."""
    found = []
    if earlier.get("target") != now.get("target"):
        found.append(f"--target {earlier.get('target')} (this run: --target {now.get('target')})")
    before, after = earlier.get("measure") or {}, now["measure"]
    for key in after:
        if before.get(key) != after[key] and not (key == "priority" and "policy" in _changed(before, after)):
            found.append(f"{_option(key, before.get(key))} (this run: {_option(key, after[key])})")
    return found


def _changed(before: dict, after: dict) -> set[str]:
    return {key for key in after if before.get(key) != after[key]}


def _option(key: str, value: object) -> str:
    """A measuring option as the user typed it."""
    if key == "policy":
        return "--no-rt" if value == "other" else f"--policy {value}"
    if key == "timerlat":
        return "--timerlat" if value else "no --timerlat"
    if key == "cpus":
        return f"--cpus {value}" if value else "every CPU"
    if key == "load_options":
        options = " ".join(f"'{kind}={text}'" for kind, text in (value or {}).items())
        return f"--load-options {options}" if options else "no --load-options"
    option = {"loops": "--loops", "duration_s": "--duration", "priority": "--priority", "break_us": "--break"}[key]
    if value is None:
        return f"no {option}"
    return f"{option} {value:g}" if isinstance(value, float) else f"{option} {value}"


def refusal(directory: Path, found: list[str]) -> BadInput:
    return BadInput(
        f"{directory}: holds a study measured with other options: {'; '.join(found)}. "
        "Give its options to go on with it, --restart to measure it again with these, or another directory"
    )


def discard(directory: Path, keep: Path | None) -> None:
    """Removes an earlier study's cells, their traces and the plots drawn from
    them (all but keep, a trace this run has just saved)."""
    for path in (directory / CELLS).glob("*.json"):
        path.unlink(missing_ok=True)
    for path in (directory / CELLS).glob("*-trace.txt"):
        if keep is None or path.resolve() != keep.resolve():
            path.unlink(missing_ok=True)
    for pattern in PLOT_NAMES:
        for path in (directory / PLOTS).glob(pattern):
            if path.suffix in (".png", ".svg"):
                path.unlink(missing_ok=True)
