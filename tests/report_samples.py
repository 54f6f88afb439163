"""Inputs for `portkit report`'s tests and benchmark, made from real results:
a latency study of any number of cells built from a real cyclictest run
(tests/data/rt), a scan document of any number of findings built from the
real findings of examples/legacy32, and documents of every area whose
names are hostile (markup, quotes, ampersands, bidi and control characters)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

from portkit.commands.rt.importers import import_file

DATA = Path(__file__).parent / "data" / "rt"
LOADS = ("idle", "cpu", "io", "net", "spawn")
HOSTILE = "<script>alert(\"x\")</script> & 'quoted' \u202egnp.exe\u202c `tick` | pipe @mention #1 \x1b[31m"


def measured_cell(name: str = "verbose-t2.txt") -> dict:
    """A real cyclictest run (every sample logged) as portkit.rt/1."""
    return import_file(DATA / name).documents[0]


def write_study(
    directory: Path,
    loads: tuple[str, ...],
    intervals: tuple[int, ...],
    template: dict,
    target: str = "local",
    sysinfo: dict | None = None,
) -> list[str]:
    """A study directory of loads x intervals cells, each the template's
    measurement under its own name (as `portkit rt run -o DIR` lays it out)."""
    (directory / "cells").mkdir(parents=True, exist_ok=True)
    names = []
    for interval in intervals:
        for load in loads:
            name = f"{load}-{interval}us"
            rt = copy.deepcopy(template)
            rt["schema"] = "portkit.rt/1"
            rt.setdefault("config", {})["interval_us"] = interval
            cell = {
                "cell": {"load": load, "interval_us": interval, "command": None},
                "target": target,
                "rt": rt,
                "loads": [],
            }
            (directory / "cells" / f"{name}.json").write_text(json.dumps(cell))
            names.append(name)
    study = {
        "schema": "portkit.rt-study/1",
        "target": target,
        "measure": {
            "loops": None,
            "duration_s": 2,
            "policy": "fifo",
            "priority": 80,
            "cpus": None,
            "break_us": None,
            "timerlat": False,
            "load_options": {},
        },
        "cells": names,
        "sysinfo": sysinfo,
    }
    (directory / "study.json").write_text(json.dumps(study))
    return names


def scan_document(template: dict, findings: int) -> dict:
    """A portkit.scan/1 document of `findings` findings: the template's own,
    again and again in more files (each with a fingerprint of its own)."""
    document = copy.deepcopy(template)
    real = template["findings"]
    made = []
    for index in range(findings):
        finding = copy.deepcopy(real[index % len(real)])
        finding["location"]["path"] = (
            f"src/module{index // len(real):05d}/{finding['location']['path'].rsplit('/', 1)[-1]}"
        )
        finding["fingerprint"] = hashlib.sha256(f"{index}".encode()).hexdigest()
        made.append(finding)
    document["findings"] = made
    counts = {"error": 0, "warning": 0, "note": 0}
    for finding in made:
        counts[finding["severity"]] += 1
    document["counts"] = counts
    document["inputs"] = document["scanned"] = findings // len(real) + 1
    return document


def small_image(root: Path) -> Path:
    """A root filesystem of one program of this machine (`true`) with the libraries it needs, from here."""
    import shutil
    import subprocess

    program = Path(shutil.which("true") or "/bin/true").resolve()
    (root / "bin").mkdir(parents=True, exist_ok=True)
    shutil.copy(program, root / "bin" / "true")
    listing = subprocess.run(["ldd", str(program)], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        path = next((word for word in line.split() if word.startswith("/")), None)
        if path is None:
            continue
        source = Path(path)
        target = root / source.relative_to("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source.resolve(), target)
    return root
