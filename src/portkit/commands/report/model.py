"""What a report is made of: the six areas it judges, the three verdicts, and
the sources (saved documents, or commands it ran) each area is judged from.
The report itself is the `portkit.report/1` document (docs/formats.md); the
renderers read that document, never the sources."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEMA = "portkit.report/1"

READY = "ready"
NOT_READY = "not_ready"
NOT_MEASURED = "not_measured"
VERDICT_WORDS = {READY: "ready", NOT_READY: "not ready", NOT_MEASURED: "not measured"}


@dataclass(frozen=True)
class Area:
    key: str  # "code": its name in options, JSON and JUnit
    title: str  # "Code"
    question: str  # what it answers, and with which command
    to_measure: str  # what to run to fill it, when nothing was given


AREAS = (
    Area(
        "code",
        "Code",
        "64-bit portability defects in the C and C++ sources (portkit scan)",
        "--source DIR (or -p BUILD_DIR) runs portkit scan here; or give the file "
        "`portkit scan SRC --format json -o scan.json` (or --format sarif) wrote",
    ),
    Area(
        "layouts",
        "Data layouts",
        "structs and unions that change between the two ABIs in the headers named (portkit layout)",
        "--headers FILE_OR_DIR (the headers of files, messages and shared memory) runs portkit layout here; "
        "or give the file `portkit layout HEADERS --format json -o layout.json` wrote",
    ),
    Area(
        "image",
        "Image",
        "the root filesystem's ELF files as its loader and kernel will meet them (portkit audit rootfs)",
        "--rootfs DIR_OR_ARCHIVE runs portkit audit rootfs here; or give the file "
        "`portkit audit rootfs IMAGE --format json -o rootfs.json` wrote",
    ),
    Area(
        "kernel",
        "Kernel",
        "the kernel configuration against the real-time, compat32, Y2038 and memory rules (portkit audit kconfig)",
        "--kconfig FILE runs portkit audit kconfig here (--target SPEC: the board's running kernel); "
        "or give the file `portkit audit kconfig CONFIG --format json -o kconfig.json` wrote",
    ),
    Area(
        "target",
        "Target",
        "what the board offers: CPU features, a vDSO that agrees with the kernel, the facts that decide latency "
        "(portkit cpu, vdso verify, rt sysinfo)",
        "--target SPEC (local, qemu-ARCH[:CPU], ssh:[USER@]HOST) runs portkit cpu, vdso verify and rt sysinfo there "
        "(--cpu-has NAME,... for the features the code needs); or give their --format json files",
    ),
    Area(
        "latency",
        "Latency",
        "wake-up latency under load against --max-latency-us (portkit rt run; cyclictest, rtla)",
        "`portkit rt run --loads idle,cpu,io,spawn --intervals 1000 --duration 60 -o study/` on the board, "
        "then give study/ (or cyclictest or rtla output, or `portkit rt import`'s results)",
    ),
)
AREA_KEYS = tuple(a.key for a in AREAS)


@dataclass
class Source:
    """One input of an area: a document read from a file or made by running a
    command here, or the reason it could not be had."""

    area: str
    label: str  # the file as given, or the command as it would be typed
    origin: str  # "file" or "run"
    kind: str = ""  # what it is: its schema, "SARIF 2.1.0 (portkit scan)", "cyclictest output"
    document: Any = None  # the command's JSON document; latency: a Latency (latency.py)
    error: str | None = None  # why there is no document (one line)
    environment: bool = False  # the error is the environment's (exit 3), not the input's (exit 2)
    bad_input: bool = False  # some of the input was refused, though a document came (the command's exit 2)


@dataclass(frozen=True)
class Settings:
    """What decides the verdicts."""

    fail_on: str = "warning"  # findings at or above it make an area not ready
    max_latency_us: dict[str, float] = field(default_factory=dict)  # "*" for every load, else a load or cell name
    noise_percent: float = 20.0  # latency changes within this (and the spread) are noise
    require: tuple[str, ...] = ()  # areas that must be measured

    def to_json(self) -> dict[str, Any]:
        return {
            "fail_on": self.fail_on,
            "max_latency_us": dict(self.max_latency_us),
            "noise_percent": self.noise_percent,
            "require": list(self.require),
        }


def sysinfo_group(warning: dict) -> str:
    """The group of one of rt sysinfo's warnings: its id (PKS1xx, docs/formats.md), shown
    before the title as a finding's rule id is, so that the reader can look it up; older
    agents send none."""
    warning_id = str(warning.get("id") or "")
    return warning_id if warning_id.startswith("PKS") else "sysinfo"


def item(key: str, index: int, severity: str, group: str, title: str, where: str, message: str, fix: str) -> dict:
    """One item of an area as the document has it: what the renderers list, with the source it came from."""
    return {
        "key": key,
        "source": index,
        "severity": severity,
        "group": group,
        "title": title,
        "where": where,
        "message": message,
        "fix": fix,
    }
