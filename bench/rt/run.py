"""`portkit-target rt` against cyclictest on this machine, in one run:

1. Agreement: the same measurement (SCHED_FIFO 80, one thread per CPU pinned,
   1000 us, the same loops, memory locked, /dev/cpu_dma_latency held at 0)
   by both tools, alternating, under each load of the field report's matrix
   (idle, cpu, io, net, spawn: `portkit-target load KIND` runs beside either
   tool). Both are summarised by the same code (portkit's importer reads
   cyclictest's histogram; percentiles from histograms, one definition), so
   only the measuring differs. portkit adds no latency of its own when its
   medians fall inside cyclictest's run-to-run range.
2. The load matrix as `portkit rt run` measures it (idle, cpu, io, net,
   spawn, all), its table, and its plots copied to docs/img/rt/.
3. The agent's size (static builds, every architecture) and its peak
   resident memory during a default run.

    python bench/rt/run.py [--rounds 5] [--loops 5000] [--write docs/benchmarks.md]

Root is needed (SCHED_FIFO, mlockall), as for cyclictest. A busy machine
makes every figure worse for both tools alike; the machine line and the load
average are printed beside the results.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from benchlib import machine, write_section  # noqa: E402
from portkit.commands.rt.importers import import_text  # noqa: E402
from portkit.commands.rt.stats import percentiles_ns  # noqa: E402
from portkit.commands.rt.summary import merged_histogram  # noqa: E402
from portkit.core.agents import local_agent  # noqa: E402
from portkit.core.arches import ARCHES  # noqa: E402

BEGIN, END = "<!-- rt-bench:begin -->", "<!-- rt-bench:end -->"
HEADING = "## rt: `portkit-target rt` against cyclictest, and the load matrix\n\n"
LOADS = ("idle", "cpu", "io", "net", "spawn")
MATRIX = "idle,cpu,io,net,spawn,all"
PRIORITY, INTERVAL_US = 80, 1000
CYCLICTEST_BUCKETS = 20000  # 20 ms of 1 us rows; slower wake-ups count in the overflow with their maximum
FIGURES = ("p50", "p99", "p99.9", "max")
PLOTS = ("histogram-1000us.png", "box-1000us.png", "loops-1000us.png")


@dataclass(frozen=True)
class Figures:
    p50: int
    p99: int
    p999: int
    max: int
    mean: float

    def get(self, name: str) -> float:
        return {"p50": self.p50, "p99": self.p99, "p99.9": self.p999, "max": self.max, "mean": self.mean}[name]


def figures(rt: dict) -> Figures:
    """Both tools' runs summarised the same way: all threads' histograms added."""
    threads = rt["threads"]
    histogram = merged_histogram(threads)
    assert histogram is not None, "a histogram is expected from both tools"
    p = percentiles_ns(histogram, ("50", "99", "99.9")) or {}
    n = sum(t["samples"] for t in threads)
    mean = sum(t["samples"] * t["mean_ns"] for t in threads) / n
    return Figures(p["50"], p["99"], p["99.9"], max(t["max_ns"] for t in threads), mean)


def portkit_round(agent: Path, loops: int) -> Figures:
    args = ["rt", "--priority", str(PRIORITY), "--interval", str(INTERVAL_US), "--distance", "0"]
    proc = subprocess.run([str(agent), *args, "--loops", str(loops), "--json"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"rt-bench: portkit-target rt failed: {proc.stderr.strip()}")
    return figures(json.loads(proc.stdout))


def cyclictest_round(loops: int) -> Figures:
    cpus = len(os.sched_getaffinity(0))
    cmd = ["cyclictest", "-m", f"-p{PRIORITY}", f"-i{INTERVAL_US}", "-d0", f"-t{cpus}", "-a", f"-l{loops}"]
    proc = subprocess.run([*cmd, "-h", str(CYCLICTEST_BUCKETS), "-q"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"rt-bench: cyclictest failed: {proc.stderr.strip()}")
    result = import_text(proc.stdout, "cyclictest", "cyclictest-histogram")
    return figures(result.documents[0])


class Load:
    """`portkit-target load KIND` beside a measurement, ended with SIGTERM."""

    def __init__(self, agent: Path, kind: str) -> None:
        self.proc = None
        if kind != "idle":
            cmd = [str(agent), "load", kind, "--duration", "3600", "--json"]
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def __enter__(self) -> Load:
        if self.proc is not None:
            subprocess.run(["sleep", "1"], check=True)  # let it reach its pace
        return self

    def __exit__(self, *_: object) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.communicate(timeout=60)


def agreement(agent: Path, rounds: int, loops: int) -> dict[str, dict[str, list[Figures]]]:
    results: dict[str, dict[str, list[Figures]]] = {}
    for kind in LOADS:
        runs = results.setdefault(kind, {"portkit": [], "cyclictest": []})
        for r in range(rounds):
            print(f"rt-bench: {kind}: round {r + 1}/{rounds}", file=sys.stderr)
            order = ("portkit", "cyclictest") if r % 2 == 0 else ("cyclictest", "portkit")
            for tool in order:
                with Load(agent, kind):
                    runs[tool].append(portkit_round(agent, loops) if tool == "portkit" else cyclictest_round(loops))
    return results


def us(ns: float) -> str:
    return f"{ns / 1000:.0f}" if ns >= 10_000 else f"{ns / 1000:.1f}"


def agreement_rows(results: dict[str, dict[str, list[Figures]]]) -> tuple[list[str], int, int]:
    rows, inside, total = [], 0, 0
    for kind, runs in results.items():
        cells = []
        for name in FIGURES:
            ours = [f.get(name) for f in runs["portkit"]]
            peer = [f.get(name) for f in runs["cyclictest"]]
            cells.append(
                f"{us(statistics.median(ours))} / {us(statistics.median(peer))} ({us(min(peer))}-{us(max(peer))})"
            )
            if name in ("p50", "p99"):
                total += 1
                inside += min(peer) <= statistics.median(ours) <= max(peer)
        mean = statistics.median(f.mean for f in runs["portkit"]) / statistics.median(
            f.mean for f in runs["cyclictest"]
        )
        rows.append(f"| {kind} | " + " | ".join(cells) + f" | {mean:.2f} |")
    return rows, inside, total


def matrix(loops: int, out: Path) -> tuple[str, list[Path]]:
    study = "load-matrix"  # relative to out, where the tools run: the plots' title names it, not a temporary path
    portkit = [sys.executable, "-m", "portkit", "rt"]
    subprocess.run(
        [*portkit, "run", "--loads", MATRIX, "--intervals", str(INTERVAL_US), "--loops", str(loops), "-o", study],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=out,
    )
    table = subprocess.run([*portkit, "table", study, "--format", "markdown"], check=True, capture_output=True, cwd=out)
    plots = out / "plots"
    subprocess.run([*portkit, "plot", study, "--to", plots], check=True, stdout=subprocess.DEVNULL, cwd=out)
    return table.stdout.decode(), [plots / name for name in PLOTS]


def sizes() -> list[str]:
    """The board's file (a Release build is stripped) and the symbols kept beside it."""
    rows = []
    for triple in (arch.triple for arch in ARCHES):  # those not cross-built (x86_64) have no build/<triple>/
        agent = ROOT / "build" / triple / "portkit-target"
        if agent.exists():
            debug = agent.with_name("portkit-target.debug")
            symbols = f"{debug.stat().st_size / 1024:.0f}" if debug.exists() else "-"
            rows.append(f"| {triple} | {agent.stat().st_size / 1024:.0f} | {symbols} |")
    return rows


def peak_rss_kib(agent: Path, seconds: int) -> int:
    """The agent's peak resident set during a default run (all CPUs, 1000 us):
    VmHWM of its own address space, read until it ends. (wait4's ru_maxrss
    would count the forking Python's pages too: Linux carries the old address
    space's high-water mark across exec.)"""
    proc = subprocess.Popen([str(agent), "rt", "--duration", str(seconds), "--json"], stdout=subprocess.DEVNULL)
    status, peak = Path(f"/proc/{proc.pid}/status"), 0
    while proc.poll() is None:
        try:
            text = status.read_text()
        except OSError:
            break
        peak = max([peak, *(int(line.split()[1]) for line in text.splitlines() if line.startswith("VmHWM:"))])
        time.sleep(0.01)
    proc.wait()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per load (default 5)")
    parser.add_argument("--loops", type=int, default=5000, help="wake-ups per thread and run (default 5000)")
    parser.add_argument("--write", type=Path, help="replace the rt section of this markdown file")
    args = parser.parse_args()
    if os.geteuid() != 0 or shutil.which("cyclictest") is None:
        sys.exit("rt-bench: needs root and cyclictest (rt-tests, scripts/install-system-packages installs it)")
    agent = local_agent()
    version = subprocess.run(["cyclictest", "--help"], capture_output=True, text=True).stdout.splitlines()[0]
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    results = agreement(agent, args.rounds, args.loops)
    with tempfile.TemporaryDirectory() as tmp:
        table, plots = matrix(args.loops, Path(tmp))
        images = ROOT / "docs" / "img" / "rt"
        if args.write:
            images.mkdir(parents=True, exist_ok=True)
            for plot in plots:
                shutil.copy(plot, images / plot.name)
    rss = peak_rss_kib(agent, 5)
    rows, inside, total = agreement_rows(results)
    seconds = args.loops * INTERVAL_US / 1e6
    section = "\n".join(
        [
            BEGIN,
            f"Machine: {machine()}; load average {' '.join(load_before)} when it started. {version}.",
            "",
            f"**Agreement.** Both tools: SCHED_FIFO {PRIORITY}, one thread per CPU pinned, {INTERVAL_US} us, "
            f"{args.loops} loops ({seconds:g} s), memory locked, /dev/cpu_dma_latency 0; {args.rounds} alternating "
            "rounds per load, the load (`portkit-target load KIND`) started a second before either tool. Cells: "
            "portkit's median / cyclictest's median (cyclictest's range over its rounds), µs; percentiles from "
            "each run's histogram, all threads together, the same code for both.",
            "",
            "| load | p50 | p99 | p99.9 | max | mean portkit / cyclictest |",
            "|---|---|---|---|---|---:|",
            *rows,
            "",
            f"portkit's median inside cyclictest's run-to-run range: {inside} of {total} (p50 and p99 per load).",
            "",
            f"**The load matrix** (`portkit rt run --loads {MATRIX} --intervals {INTERVAL_US} --loops {args.loops}`):",
            "",
            *table.strip().splitlines()[2:],  # the rows: the heading above says what was run
            "",
            *[f"![{p.stem}](img/rt/{p.name})" for p in plots],
            "",
            "**The agent's size** (static Release builds, `make cross`; KiB):",
            "",
            "| build | on the board | symbols beside it (.debug) |",
            "|---|---:|---:|",
            *sizes(),
            "",
            f"Peak resident memory of `portkit-target rt` (x86_64, default run: every CPU, 1000 us, 5 s): {rss} KiB "
            "(the histogram is 100 ms of 1 µs buckets per thread, locked in memory).",
            END,
        ]
    )
    print(section)
    if args.write:
        write_section(args.write, section + "\n", BEGIN, END, HEADING)


if __name__ == "__main__":
    main()
