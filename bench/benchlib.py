"""What every benchmark script shares: the machine line that goes beside every
figure, and replacing its own marked section of docs/benchmarks.md. Scripts
import it with bench/ on sys.path (`sys.path.insert(0, BENCH)`)."""

from __future__ import annotations

import datetime
import platform
from pathlib import Path


def machine() -> str:
    """'AMD EPYC, 2 CPUs, kernel 6.18.44, 2026-11-23': the CPU model, CPU count, kernel and day."""
    info = Path("/proc/cpuinfo").read_text().splitlines()
    model = next((line.split(":", 1)[1].strip() for line in info if "model name" in line), platform.processor())
    cpus = sum(1 for line in info if line.startswith("processor"))
    return f"{model}, {cpus} CPUs, kernel {platform.release()}, {datetime.date.today().isoformat()}"


def write_section(path: Path, section: str, begin: str, end: str, heading: str = "") -> None:
    """Replaces the text from `begin` to `end` (both kept in `section`) in
    path, or appends `heading` and the section when the markers are absent."""
    text = path.read_text() if path.exists() else ""
    if begin in text and end in text:
        text = text[: text.index(begin)] + section + text[text.index(end) + len(end) + 1 :]
    else:
        text += "\n" + heading + section
    path.write_text(text)
