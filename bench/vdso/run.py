"""vDSO benchmark, side by side: `portkit-target vdso bench` against an
independent reference, the field report's experiment written the plain way
(bench/vdso/gettimeofday_loop.c: a loop of gettimeofday() via libc, then via the raw
system call, timed from outside). Both run on the same agent architecture,
alternating, repeated; medians and ratios go to docs/benchmarks.md.

    python bench/vdso/run.py [--rounds 7] [--calls 500000] [--write docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from benchlib import machine, write_section  # noqa: E402

BEGIN, END = "<!-- vdso-bench:begin -->", "<!-- vdso-bench:end -->"


@dataclass(frozen=True)
class Setup:
    label: str
    agent: Path
    compiler: str  # builds the reference for the same architecture


SETUPS = (
    Setup("x86_64 native (64-bit vDSO)", ROOT / ".venv/bin/portkit-target", "gcc"),
    Setup("i686 on x86_64 kernel (compat vDSO)", ROOT / "build/i686-linux-gnu/portkit-target", "i686-linux-gnu-gcc"),
)


def build_reference(setup: Setup, out_dir: Path) -> Path:
    out = out_dir / f"gettimeofday_loop-{setup.compiler}"
    source = ROOT / "bench/vdso/gettimeofday_loop.c"
    subprocess.run([setup.compiler, "-O2", "-static", "-o", str(out), str(source)], check=True)
    return out


def agent_round(agent: Path, calls: int) -> tuple[float, float, float]:
    """libc, vDSO and syscall ns per gettimeofday, one repeat of the agent's bench."""
    out = subprocess.run(
        [str(agent), "vdso", "bench", "--calls", str(calls), "--repeat", "1", "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    fn = next(f for f in json.loads(out)["functions"] if f["name"] == "gettimeofday")
    return fn["libc"]["ns_per_call"], fn["vdso"]["ns_per_call"], fn["syscall"]["ns_per_call"]


def reference_round(reference: Path, calls: int) -> tuple[float, float]:
    out = subprocess.run([str(reference), str(calls)], check=True, capture_output=True, text=True).stdout
    libc, syscall = map(float, out.split())
    return libc, syscall


def measure(setup: Setup, reference: Path, rounds: int, calls: int) -> dict[str, float]:
    agent_runs, reference_runs = [], []
    for _ in range(rounds):  # alternate so drift and noise hit both alike
        agent_runs.append(agent_round(setup.agent, calls))
        reference_runs.append(reference_round(reference, calls))
    median = statistics.median
    return {
        "agent_libc": median(r[0] for r in agent_runs),
        "agent_vdso": median(r[1] for r in agent_runs),
        "agent_syscall": median(r[2] for r in agent_runs),
        "ref_libc": median(r[0] for r in reference_runs),
        "ref_syscall": median(r[1] for r in reference_runs),
    }


def markdown(results: dict[str, dict[str, float]], rounds: int, calls: int) -> str:
    lines = [
        BEGIN,
        f"Machine: {machine()}. {rounds} alternating rounds of {calls} gettimeofday calls each; medians, ns per call.",
        "",
        "| process | portkit libc | portkit vDSO | portkit syscall | reference libc | reference syscall "
        "| vDSO speed-up (syscall/vDSO) | portkit/reference (libc) | portkit/reference (syscall) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, r in results.items():
        lines.append(
            f"| {label} | {r['agent_libc']:.1f} | {r['agent_vdso']:.1f} | {r['agent_syscall']:.1f} "
            f"| {r['ref_libc']:.1f} | {r['ref_syscall']:.1f} | {r['agent_syscall'] / r['agent_vdso']:.1f}x "
            f"| {r['agent_libc'] / r['ref_libc']:.2f} | {r['agent_syscall'] / r['ref_syscall']:.2f} |"
        )
    lines.append(END)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=500000)
    parser.add_argument("--write", type=Path, help="replace the vdso section of this markdown file")
    args = parser.parse_args()
    out_dir = ROOT / "build/bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    results = {}
    for setup in SETUPS:
        reference = build_reference(setup, out_dir)
        results[setup.label] = measure(setup, reference, args.rounds, args.calls)
    section = markdown(results, args.rounds, args.calls)
    print(section)
    if args.write:
        write_section(args.write, section, BEGIN, END)


if __name__ == "__main__":
    main()
