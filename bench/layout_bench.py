"""`portkit layout` against pahole (dwarves) on the same headers.

Both start from the same header set and end with every record's layout for
aarch64-linux-gnu: portkit parses the headers with libclang; pahole reads the
DWARF of an object that aarch64-linux-gnu-gcc -g compiled from them (timed
with and without that compile). The two agree on every record's size before
anything is timed. Rounds alternate; medians and ratios go to
docs/benchmarks.md.

    python bench/layout_bench.py [--rounds 9] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADERS = sorted((ROOT / "tests/data/layout").glob("*.h")) + sorted((ROOT / "examples/legacy32/include").glob("*.h"))
TRIPLE = "aarch64-linux-gnu"
BEGIN, END = "<!-- layout-bench:begin -->", "<!-- layout-bench:end -->"


def portkit_cmd() -> list[str]:
    return [
        sys.executable,
        "-m",
        "portkit",
        "layout",
        "--all",
        "--abi",
        "aarch64",
        "--format",
        "json",
        *map(str, HEADERS),
    ]


def compile_cmd(src: Path, obj: Path) -> list[str]:
    return [f"{TRIPLE}-gcc", "-g", "-c", "-w", "-fno-eliminate-unused-debug-types", str(src), "-o", str(obj)]


def timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, proc.stdout


def agree(portkit_out: str, pahole_out: str) -> int:
    """Every record's size: portkit's == pahole's; returns how many were compared."""
    ours = {r["name"]: r["layouts"]["aarch64"]["size"] for r in json.loads(portkit_out)["records"]}
    theirs = {
        f"struct {m.group(1)}": int(m.group(2))
        for m in re.finditer(r"^struct (\w+) \{.*?/\* size: (\d+)", pahole_out, re.S | re.M)
    }
    common = sorted(set(ours) & set(theirs))
    wrong = [(n, ours[n], theirs[n]) for n in common if ours[n] != theirs[n]]
    if wrong or len(common) < 20:
        sys.exit(f"layout_bench: portkit and pahole disagree: {wrong or f'only {len(common)} records in common'}")
    return len(common)


def machine() -> str:
    info = Path("/proc/cpuinfo").read_text().splitlines()
    model = next((line.split(":", 1)[1].strip() for line in info if "model name" in line), platform.processor())
    cpus = sum(1 for line in info if line.startswith("processor"))
    return f"{model}, {cpus} CPUs, kernel {platform.release()}, {datetime.date.today().isoformat()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--write", type=Path, help="replace the layout section of this markdown file")
    args = parser.parse_args()
    for tool in (f"{TRIPLE}-gcc", "pahole"):
        if shutil.which(tool) is None:
            sys.exit(f"layout_bench: {tool} not found (scripts/install-system-packages installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = Path(tmp) / "all.c", Path(tmp) / "all.o"
        src.write_text("".join(f'#include "{h}"\n' for h in HEADERS))
        subprocess.run(compile_cmd(src, obj), check=True)
        records = agree(timed(portkit_cmd())[1], timed(["pahole", str(obj)])[1])
        times: dict[str, list[float]] = {"portkit": [], "compile": [], "pahole": []}
        for _ in range(args.rounds):
            times["portkit"].append(timed(portkit_cmd())[0])
            times["compile"].append(timed(compile_cmd(src, obj))[0])
            times["pahole"].append(timed(["pahole", str(obj)])[0])
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    both = med["compile"] + med["pahole"]
    version = subprocess.run(["pahole", "--version"], capture_output=True, text=True).stdout.strip()
    section = (
        "\n".join(
            [
                BEGIN,
                f"Machine: {machine()}. {len(HEADERS)} headers, {records} records whose sizes both tools agree on; "
                f"{args.rounds} alternating rounds, medians, wall-clock ms per run (one ABI: {TRIPLE}).",
                "",
                "| portkit layout (libclang, incl. Python start-up) | gcc -g -c | pahole "
                + version
                + " | gcc + pahole | portkit / (gcc + pahole) | portkit / pahole alone |",
                "|---|---|---|---|---|---|",
                f"| {med['portkit']:.0f} | {med['compile']:.0f} | {med['pahole']:.0f} | {both:.0f} "
                f"| {med['portkit'] / both:.2f} | {med['portkit'] / med['pahole']:.2f} |",
                END,
            ]
        )
        + "\n"
    )
    print(section)
    if args.write:
        text = args.write.read_text()
        if BEGIN in text and END in text:
            text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1 :]
        else:
            text += (
                "\n## Layout: `portkit layout` against pahole\n\n`python bench/layout_bench.py --write "
                "docs/benchmarks.md`\n\n" + section
            )
        args.write.write_text(text)


if __name__ == "__main__":
    main()
