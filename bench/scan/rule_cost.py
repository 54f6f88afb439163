"""What one scan rule costs: `portkit scan -p DB` with every rule against the
same scan with `--ignore RULE` (the engine runs only the selected rules'
checks), on the compile databases bench/scan/run.py prepared. Alternating
rounds, the order rotating each round, after one untimed warm-up of each;
medians and their ratio, per project, in one run.

    python bench/scan/rule_cost.py PK103 [--rounds 5] [--projects zlib,libxml2]
    python bench/scan/rule_cost.py PK303 --db DIR --scan-args="--from LP64 --to LLP64"

Needs run.py's cache (run it once first): $PORTKIT_BENCH_CACHE, else
$XDG_CACHE_HOME/portkit-bench, else /var/tmp/portkit-bench; db/<project>/.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: benchlib
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/scan: run.py's cache
from run import TIMED_JOBS, cache_dir

from benchlib import machine

DEFAULT_PROJECTS = ("zlib", "bzip2", "expat", "libyaml", "jq", "lua5.4", "curl", "libxml2", "sqlite3")


def scan_seconds(db: Path, extra: list[str]) -> float:
    command = [sys.executable, "-m", "portkit", "scan", "-p", str(db), "-j", str(TIMED_JOBS), "--no-cache", "-q"]
    command += ["--format", "json", "--fail-on", "never", "--allow-incomplete", "-o", "/dev/null", *extra]
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
        sys.exit(f"rule-cost: {' '.join(command)} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rule", help="the rule id to weigh, e.g. PK103")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--projects", default=",".join(DEFAULT_PROJECTS), help="comma-separated (%(default)s)")
    parser.add_argument("--db", action="append", type=Path, help="a compile database's folder instead of --projects")
    parser.add_argument("--scan-args", default="", help="more scan options for both ways (a rule for other models)")
    args = parser.parse_args()
    more = shlex.split(args.scan_args)
    ways = {"all rules": more, f"--ignore {args.rule}": ["--ignore", args.rule, *more]}
    print(machine())
    print(f"\n| project | all rules (s) | --ignore {args.rule} (s) | ratio |\n|---|---:|---:|---:|")
    databases = args.db or [cache_dir() / "db" / project for project in args.projects.split(",")]
    for db in databases:
        project = db.name
        if not (db / "compile_commands.json").exists():
            print(f"| {project} | not prepared (run bench/scan/run.py) | | |")
            continue
        names = list(ways)
        for name in names:
            scan_seconds(db, ways[name])  # warm-up: the page cache, libclang's first load
        times: dict[str, list[float]] = {name: [] for name in names}
        for round_ in range(args.rounds):
            for name in names[round_ % 2 :] + names[: round_ % 2]:
                times[name].append(scan_seconds(db, ways[name]))
        with_rule, without = (statistics.median(times[name]) for name in names)
        print(f"| {project} | {with_rule:.2f} | {without:.2f} | {with_rule / without:.3f} |", flush=True)


if __name__ == "__main__":
    main()
