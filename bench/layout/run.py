"""`portkit layout` against pahole (dwarves) on the same headers.

Both start from the same header set and end with every record's layout, for
one ABI (aarch64-linux-gnu) and for the field report's pair (arm-linux-gnueabihf and
aarch64-linux-gnu): portkit parses the headers with libclang, once per ABI,
in one run; pahole reads the DWARF of an object that the target's gcc -g
compiled from them (timed with and without that compile), once per ABI. The
two agree on every record's size for both ABIs before anything is timed.
Rounds alternate; medians and ratios go to docs/benchmarks.md.

The scaling case lays out generated headers of 1000 to 8000 records for the
field report's pair, beside gcc + pahole on the same headers: portkit's time per record
must stay flat as the count grows (it was quadratic in places once).

    python bench/layout/run.py [--rounds 9] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from benchlib import machine, write_section  # noqa: E402

HEADERS = sorted((ROOT / "tests/data/layout").glob("*.h")) + sorted((ROOT / "examples/legacy32/include").glob("*.h"))
TRIPLES = {"aarch64": "aarch64-linux-gnu", "arm": "arm-linux-gnueabihf"}
BEGIN, END = "<!-- layout-bench:begin -->", "<!-- layout-bench:end -->"
SCALING_COUNTS = (1000, 2000, 4000, 8000)


def generated_header(path: Path, count: int) -> Path:
    """count records, each of a pointer, a long and an int: all change between ILP32 and LP64."""
    path.write_text("".join(f"struct g{i} {{ void *p; long a; int b; }};\n" for i in range(count)))
    return path


def portkit_cmd(abis: list[str], headers: list[Path] = HEADERS) -> list[str]:
    flags = [f"--abi={a}" for a in abis]
    return [sys.executable, "-m", "portkit", "layout", "--all", *flags, "--format", "json", *map(str, headers)]


def compile_cmd(triple: str, src: Path, obj: Path) -> list[str]:
    return [f"{triple}-gcc", "-g", "-c", "-w", "-fno-eliminate-unused-debug-types", str(src), "-o", str(obj)]


def timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, proc.stdout


def agree(portkit_out: str, pahole_out: str, abi: str) -> int:
    """Every record's size: portkit's == pahole's; returns how many were compared."""
    ours = {r["name"]: r["layouts"][abi]["size"] for r in json.loads(portkit_out)["records"]}
    theirs = {
        f"struct {m.group(1)}": int(m.group(2))
        for m in re.finditer(r"^struct (\w+) \{.*?/\* size: (\d+)", pahole_out, re.S | re.M)
    }
    common = sorted(set(ours) & set(theirs))
    wrong = [(n, ours[n], theirs[n]) for n in common if ours[n] != theirs[n]]
    if wrong or len(common) < 20:
        sys.exit(f"bench/layout: portkit and pahole disagree: {wrong or f'only {len(common)} records in common'}")
    return len(common)


def measure_scaling(tmp: Path, rounds: int) -> list[str]:
    """Markdown rows: portkit and gcc + pahole on generated headers of growing size."""
    rows = []
    headers = {n: generated_header(tmp / f"gen{n}.c", n) for n in SCALING_COUNTS}  # .c: gcc -c compiles it
    times: dict[tuple[str, int], list[float]] = {}
    for _ in range(rounds):
        for n, header in headers.items():
            times.setdefault(("portkit", n), []).append(timed(portkit_cmd(["arm", "aarch64"], [header]))[0])
            peer = 0.0
            for triple in TRIPLES.values():
                obj = tmp / f"gen{n}-{triple}.o"
                peer += timed(compile_cmd(triple, header, obj))[0] + timed(["pahole", str(obj)])[0]
            times.setdefault(("peer", n), []).append(peer)
    for n in SCALING_COUNTS:
        ours, peer = statistics.median(times["portkit", n]), statistics.median(times["peer", n])
        rows.append(f"| {n} | {ours * 1000:.0f} | {ours * 1e6 / n:.0f} | {peer * 1000:.0f} | {ours / peer:.2f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--write", type=Path, help="replace the layout section of this markdown file")
    args = parser.parse_args()
    for tool in [f"{t}-gcc" for t in TRIPLES.values()] + ["pahole"]:
        if shutil.which(tool) is None:
            sys.exit(f"bench/layout: {tool} not found (scripts/install-system-packages installs it)")
    jobs = {"aarch64": ["aarch64"], "arm + aarch64": ["arm", "aarch64"]}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "all.c"
        src.write_text("".join(f'#include "{h}"\n' for h in HEADERS))
        objs = {abi: Path(tmp) / f"{abi}.o" for abi in TRIPLES}
        for abi, triple in TRIPLES.items():
            subprocess.run(compile_cmd(triple, src, objs[abi]), check=True)
        both_abis = timed(portkit_cmd(jobs["arm + aarch64"]))[1]
        records = {abi: agree(both_abis, timed(["pahole", str(objs[abi])])[1], abi) for abi in TRIPLES}
        times: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for job, abis in jobs.items():
                times.setdefault(f"portkit {job}", []).append(timed(portkit_cmd(abis))[0])
            for abi, triple in TRIPLES.items():
                times.setdefault(f"compile {abi}", []).append(timed(compile_cmd(triple, src, objs[abi]))[0])
                times.setdefault(f"pahole {abi}", []).append(timed(["pahole", str(objs[abi])])[0])
        scaling = measure_scaling(Path(tmp), args.rounds)
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    version = subprocess.run(["pahole", "--version"], capture_output=True, text=True).stdout.strip()
    rows = []
    for job, abis in jobs.items():
        compile_ms = sum(med[f"compile {a}"] for a in abis)
        pahole_ms = sum(med[f"pahole {a}"] for a in abis)
        ours = med[f"portkit {job}"]
        rows.append(
            f"| {job} | {ours:.0f} | {compile_ms:.0f} | {pahole_ms:.0f} | {compile_ms + pahole_ms:.0f} "
            f"| {ours / (compile_ms + pahole_ms):.2f} | {ours / pahole_ms:.1f} |"
        )
    section = (
        "\n".join(
            [
                BEGIN,
                f"Machine: {machine()}. {len(HEADERS)} headers; sizes agree on {records['aarch64']} records for "
                f"aarch64 and {records['arm']} for arm; {args.rounds} alternating rounds, medians, wall-clock ms.",
                "",
                f"| ABIs | portkit layout (one run, incl. Python start-up) | gcc -g -c | pahole {version} "
                "| gcc + pahole | portkit / (gcc + pahole) | portkit / pahole alone |",
                "|---|---|---|---|---|---|---|",
                *rows,
                "",
                f"Scaling: generated headers, every record laid out for arm and aarch64; {args.rounds} alternating "
                "rounds, medians. gcc + pahole: both triples' gcc -g -c and pahole.",
                "",
                "| records | portkit ms | portkit µs per record | gcc + pahole ms | portkit / (gcc + pahole) |",
                "|---:|---:|---:|---:|---:|",
                *scaling,
                END,
            ]
        )
        + "\n"
    )
    print(section)
    if args.write:
        heading = "## Layout: `portkit layout` against pahole\n\n"
        heading += f"`python {Path(__file__).relative_to(ROOT)} --write docs/benchmarks.md`\n\n"
        write_section(args.write, section, BEGIN, END, heading)


if __name__ == "__main__":
    main()
