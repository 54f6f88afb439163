"""`portkit scan`'s cache, timed on a real configured project (zlib from
Debian bookworm, `./configure && bear -- make`, scanned with -p): a full scan
into an empty cache, a rescan with nothing changed, a rescan after one source
file changed, and after the header every source includes changed. Each is
the wall time of the whole command (start-up included), median of N rounds.

    python bench/scan/incremental.py [--rounds 5] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as scanbench  # noqa: E402  (fetching and building the Debian projects)

from benchlib import machine, write_section  # noqa: E402

BEGIN, END = "<!-- scan-incremental:begin -->", "<!-- scan-incremental:end -->"
SOURCE, HEADER = "adler32.c", "zutil.h"  # one source; the header every zlib source includes


def timed(command: list[str], cwd: Path) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"scan-incremental: {' '.join(command)} failed ({proc.returncode}): {proc.stderr}")
    return elapsed, json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", type=Path, help="replace this section of a markdown file")
    parser.add_argument("--cache", type=Path, default=scanbench.cache_dir(), help="sources and builds")
    args = parser.parse_args()
    portkit = scanbench.portkit_command(None)
    if why := scanbench.ensure_deb_src():
        sys.exit(f"scan-incremental: cannot fetch sources: {why}")
    project = scanbench.PROJECTS[0]
    prepared = scanbench.prepare(project, args.cache)
    cache = Path(tempfile.mkdtemp(prefix="portkit-scan-cache."))
    scan = [*portkit, "scan", "--format", "json", "--fail-on", "never", "-j", "2", "-p", str(prepared.db_dir)]
    scan += ["--cache", str(cache)]
    source, header = prepared.src / SOURCE, prepared.src / HEADER
    originals = {source: source.read_bytes(), header: header.read_bytes()}
    times: dict[str, list[float]] = {"full": [], "none": [], "source": [], "header": []}
    reused: dict[str, int] = {}

    def edit(path: Path, round_: int) -> Callable[[], None]:
        return lambda: path.write_bytes(originals[path] + f"/* edit {round_} */\n".encode())

    load_before = os.getloadavg()[0]
    try:
        for round_ in range(args.rounds):
            shutil.rmtree(cache, ignore_errors=True)
            for key, before in (
                ("full", None),
                ("none", None),
                ("source", edit(source, round_)),
                ("header", edit(header, round_)),
            ):
                if before is not None:
                    before()
                seconds, document = timed(scan, prepared.src)
                times[key].append(seconds)
                reused[key] = document["cache"]["reused"]
            for path, data in originals.items():
                path.write_bytes(data)
    finally:
        for path, data in originals.items():
            path.write_bytes(data)
        shutil.rmtree(cache, ignore_errors=True)
    files = len(prepared.sources)
    rows = [
        "| scan of zlib (-p, -j 2) | files parsed | seconds, median (min\u2013max) |",
        "|---|---:|---:|",
    ]
    labels = {
        "full": "full scan, empty cache",
        "none": "rescan, nothing changed",
        "source": f"rescan after editing one source ({SOURCE})",
        "header": f"rescan after editing a header every source includes ({HEADER})",
    }
    for key, label in labels.items():
        values = times[key]
        spread = f"{statistics.median(values):.2f} ({min(values):.2f}\u2013{max(values):.2f})"
        rows.append(f"| {label} | {files - reused[key]} of {files} | {spread} |")
    section = "\n".join(
        [
            BEGIN,
            f"Machine: {machine()}.",
            "",
            f"zlib {prepared.version} ({files} C files of its compile database), the whole `portkit scan` command "
            f"timed (start-up, model probes, cache checks and any parsing), {args.rounds} rounds; the machine's "
            f"1-minute load average was {load_before:.1f} before and {os.getloadavg()[0]:.1f} after (other work "
            "shares it: compare the rows with each other, not with another run):",
            "",
            *rows,
            END,
        ]
    )
    print(section)
    if args.write:
        heading = "## Scan: rescanning with the cache\n\n"
        heading += f"`python {Path(__file__).relative_to(HERE.parents[1])} --write docs/benchmarks.md`\n\n"
        write_section(args.write, section + "\n", BEGIN, END, heading)


if __name__ == "__main__":
    main()
