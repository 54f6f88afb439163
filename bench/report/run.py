"""`portkit report` on large inputs: a scan with 10000 findings and a study
of 50 cells (5 loads x 10 intervals), as the issue asks. For each: the time
`portkit report` takes to write every format, the size of the HTML and of
the Markdown (in the UTF-16 units GitHub counts), and how long Debian's
headless Chromium takes to open the HTML (navigation start to the load
event, by the page's own clock) and to paint all of it (a full-page
screenshot). Medians of repeated runs; no peer writes such a report, so the
figures stand against the issue's budgets: open in under 2 s, a Markdown
under GitHub's 65,536-character comment limit.

    python bench/report/run.py [--rounds 5] [--write docs/benchmarks.md]

The inputs are built from real results: the findings of `portkit scan
examples/legacy32/` repeated over 625 files, and a real cyclictest run
(tests/data/rt/verbose-t2.txt, every sample logged) as each cell.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
from benchlib import machine, write_section  # noqa: E402
from browser import Browser  # noqa: E402
from portkit.commands.report.markdown import size  # noqa: E402
from report_samples import LEGACY, LOADS, measured_cell, scan_document, write_study  # noqa: E402

BEGIN, END = "<!-- report-bench:begin -->", "<!-- report-bench:end -->"
HEADING = "## Report: `portkit report` on large inputs\n\n"
BUDGET_S = 2.0
COMMENT_LIMIT = 65_536


def portkit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "portkit", *map(str, args)], capture_output=True, text=True, cwd=ROOT)


def inputs(where: Path) -> dict[str, list[Path]]:
    scan = where / "scan.json"
    proc = portkit("scan", LEGACY, "--format", "json", "-o", scan)
    assert proc.returncode == 1, proc.stderr
    big = where / "scan-10000.json"
    big.write_text(json.dumps(scan_document(json.loads(scan.read_text()), 10_000)))
    write_study(where / "study-50", LOADS, tuple(range(100, 1100, 100)), measured_cell())
    return {"scan, 10000 findings": [big], "study, 50 cells": [where / "study-50"]}


def measure(name: str, operands: list[Path], where: Path, rounds: int, browser: Browser) -> dict:
    out = where / name.split(",")[0]
    out.mkdir(exist_ok=True)
    files = {fmt: out / f"report.{fmt}" for fmt in ("html", "markdown", "json", "junit")}
    writing = []
    for _ in range(max(3, rounds // 2)):
        start = time.perf_counter()
        proc = portkit("report", *operands, *(x for fmt, path in files.items() for x in (f"--{fmt}", path)), "-q")
        writing.append(time.perf_counter() - start)
        assert proc.returncode in (0, 1), proc.stderr
    loads, paints = [], []
    for _ in range(rounds):
        load = browser.load(files["html"])
        assert load.console == [], load.console
        loads.append(load.seconds)
        start = time.perf_counter()
        browser.screenshot(out / "full.png", full_page=True)
        paints.append(load.seconds + time.perf_counter() - start)
    return {
        "name": name,
        "write_s": statistics.median(writing),
        "html_bytes": files["html"].stat().st_size,
        "markdown_units": size(files["markdown"].read_text()),
        "load_s": statistics.median(loads),
        "load_max_s": max(loads),
        "paint_s": statistics.median(paints),
    }


def table(results: list[dict], rounds: int) -> str:
    lines = [
        f"Machine: {machine()}. Medians of {rounds} loads in Chromium "
        f"({subprocess.run(['chromium', '--version'], capture_output=True, text=True).stdout.strip()}), "
        "each a fresh navigation of the same tab; `portkit report` writing HTML, Markdown, JSON and JUnit in one run.",
        "",
        "| input | portkit report (all formats) | HTML | opens (load event) | worst load | painted whole "
        "| Markdown (of 65,536) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['name']} | {r['write_s']:.1f} s | {r['html_bytes'] / 1e6:.1f} MB | {r['load_s']:.2f} s | "
            f"{r['load_max_s']:.2f} s | {r['paint_s']:.2f} s | {r['markdown_units']:,} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", type=Path, help="replace the report section of this Markdown file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="portkit-report-bench-") as tmp, Browser() as browser:
        where = Path(tmp)
        results = [measure(name, operands, where, args.rounds, browser) for name, operands in inputs(where).items()]
    text = table(results, args.rounds)
    for r in results:
        verdict = "within" if r["load_max_s"] < BUDGET_S and r["markdown_units"] < COMMENT_LIMIT else "OVER"
        print(f"{r['name']}: {verdict} the budget ({BUDGET_S} s to open, {COMMENT_LIMIT} characters of Markdown)")
    print(text)
    if args.write:
        write_section(args.write, f"{BEGIN}\n{text}{END}\n", BEGIN, END, HEADING)


if __name__ == "__main__":
    main()
