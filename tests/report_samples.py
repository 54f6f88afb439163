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

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "rt"
LEGACY = ROOT / "examples" / "legacy32"
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


def save_results(where: Path) -> dict[str, Path]:
    """Each area's result as the commands write it (JSON, and SARIF where they write it):
    the legacy project's code and headers, Debian 12's arm64 rt kernel config, a small
    image of this machine's `true`, this machine as the target, a study of a real run."""
    import pytest

    from conftest import BUILD
    from debian_kconfigs import debian_configs

    agent = BUILD / "host" / "portkit-target"
    if not agent.exists():
        pytest.skip("no host agent (make native)")
    kconfig = debian_configs("arm64") / "config.arm64_rt_arm64.xz"
    image = small_image(where / "rootfs")
    target = ("--agent", str(agent))
    found = {
        "code": _saved(where / "scan.json", "scan", LEGACY, "--format", "json"),
        "code-sarif": _saved(where / "scan.sarif", "scan", LEGACY, "--format", "sarif"),
        "layouts": _saved(where / "layout.json", "layout", LEGACY / "include", "--format", "json"),
        "image": _saved(where / "rootfs.json", "audit", "rootfs", image, "--format", "json"),
        "image-sarif": _saved(where / "rootfs.sarif", "audit", "rootfs", image, "--format", "sarif"),
        "kernel": _saved(where / "kconfig.json", "audit", "kconfig", kconfig, "--format", "json"),
        "kernel-sarif": _saved(where / "kconfig.sarif", "audit", "kconfig", kconfig, "--format", "sarif"),
        "target-cpu": _saved(where / "cpu.json", "cpu", *target, "--format", "json"),
        "target-vdso": _saved(where / "vdso.json", "vdso", "verify", *target, "--format", "json"),
        "target-sysinfo": _saved(where / "sysinfo.json", "rt", "sysinfo", *target, "--format", "json"),
    }
    write_study(where / "study", ("idle", "cpu"), (1000,), measured_cell())
    found["latency"] = where / "study"
    found["latency-cyclictest"] = DATA / "verbose-t2.txt"
    return found


def _saved(out: Path, *args: str | Path) -> Path:
    from conftest import run_portkit

    proc = run_portkit(*args, "-o", out, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return out


def hostile_results(saved: dict[str, Path], where: Path) -> list[Path]:
    """The saved results with a hostile name in every place a report shows
    one: paths, messages, fixes and rule names of findings, record names and
    reasons, a CPU's model and features, the vDSO's name and the target's
    warnings, a study's directory, its cells, their loads and what the
    loads achieved, an import's problems."""
    where.mkdir(parents=True, exist_ok=True)
    written = []
    for key in ("code", "image", "kernel"):
        document = json.loads(saved[key].read_text())
        for finding in document["findings"][:3] or []:
            finding["location"]["path"] = f"{HOSTILE}/{finding['location']['path']}"
            finding["message"] = f"{HOSTILE} {finding['message']}"
            finding["fix"] = f"{HOSTILE} {finding['fix']}"
        document["findings"].append({**_finding(HOSTILE), "rule": document["rules"][0]["id"]})
        document["rules"][0]["name"] = HOSTILE
        document.setdefault("incomplete", []).append({"path": HOSTILE, "line": 3, "reason": HOSTILE})
        written.append(_dump(where / f"{key}.json", document))
    layout = json.loads(saved["layouts"].read_text())
    for record in layout["records"][:2]:
        record["name"], record["file"] = HOSTILE, HOSTILE
        record["reasons"] = [HOSTILE]
    layout["failed"] = [f"{HOSTILE}: binary file, not C"]
    written.append(_dump(where / "layout.json", layout))
    cpu = json.loads(saved["target-cpu"].read_text())
    cpu.update(model=HOSTILE, vendor=HOSTILE, wanted=[HOSTILE], missing=[HOSTILE], target=HOSTILE)
    cpu["features"].append(HOSTILE)
    written.append(_dump(where / "cpu.json", cpu))
    vdso = json.loads(saved["target-vdso"].read_text())
    vdso.update(
        present=False, soname=HOSTILE, no_vdso={"message": HOSTILE, "hints": [HOSTILE], "syscall_ns_per_call": 1.0}
    )
    vdso["checks"][0].update(status="fail", function=HOSTILE, clock=HOSTILE, detail=HOSTILE)
    written.append(_dump(where / "vdso.json", vdso))
    sysinfo = json.loads(saved["target-sysinfo"].read_text())
    sysinfo["warnings"] = [{"about": HOSTILE, "message": HOSTILE}]
    sysinfo["kernel"]["release"] = HOSTILE
    written.append(_dump(where / "sysinfo.json", sysinfo))
    study = where / HOSTILE.replace("/", "_")
    cell = measured_cell()
    cell["source"]["problems"] = [HOSTILE]
    names = write_study(
        study,
        (HOSTILE.replace("/", "_"), "cpu"),
        (1000,),
        cell,
        sysinfo={"warnings": [{"about": HOSTILE, "message": HOSTILE}]},
    )
    document = json.loads((study / "cells" / f"{names[0]}.json").read_text())
    document["loads"] = [{"kind": HOSTILE, "achieved": {"cpu_percent": 50.0, "system_busy_percent": 99.0}}]
    (study / "cells" / f"{names[0]}.json").write_text(json.dumps(document))
    written.append(study)
    imported = where / f"{HOSTILE.replace('/', '_')}.txt"
    imported.write_bytes((DATA / "verbose-t2.txt").read_bytes()[:-1])  # cut short: a problem that names the file
    written.append(imported)
    return written


def _finding(text: str) -> dict:
    return {
        "rule": "",
        "severity": "error",
        "location": {"path": text, "line": 7, "column": 3, "end_line": 7, "end_column": 9},
        "message": text,
        "fix": text,
        "models": [],
        "fingerprint": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
    }


def _dump(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document))
    return path
