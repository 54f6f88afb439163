"""Wall time of `portkit scan` (two builds of it, say main's and a branch's)
against `clang --target=aarch64-linux-gnu -fsyntax-only` over the same
compile commands, 2 files at a time for each, in alternating rounds (the
order rotates), after one untimed warm-up of each; medians and ratios, of
wall time and of CPU time (user and system, the workers' included).

    python bench/scan/walk_speed.py --portkit before=/work/main/.venv/bin/portkit \\
        --portkit after=.venv/bin/portkit [--rounds 3] zlib sqlite3 ...

Each project is /var/tmp/portkit-bench/build/NAME/compile_commands.json
(bench/scan/run.py builds them); clang is given each entry's own flags as
run.py gives them to the peers.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from run import TIMED_JOBS, peer_flags  # bench/scan/run.py, beside this file

BUILDS = Path("/var/tmp/portkit-bench/build")


def clang_run(database: Path) -> Callable[[], None]:
    entries = json.loads(database.read_text())
    commands = []
    for e in entries:
        arguments = e.get("arguments") or shlex.split(e["command"])
        path = os.path.join(e["directory"], e["file"])
        flags = peer_flags(arguments)
        commands.append((["clang", "--target=aarch64-linux-gnu", "-fsyntax-only", *flags, path], e["directory"]))

    def one(command: tuple[list[str], str]) -> None:
        subprocess.run(command[0], cwd=command[1], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def run() -> None:
        with concurrent.futures.ThreadPoolExecutor(TIMED_JOBS) as pool:
            list(pool.map(one, commands))

    return run


def portkit_run(portkit: str, build: Path, out: Path) -> Callable[[], None]:
    command = [portkit, "scan", "-p", str(build), "-j", str(TIMED_JOBS), "--no-cache", "--format", "json"]

    def run() -> None:
        subprocess.run([*command, "--fail-on", "never", "-o", str(out)], capture_output=True, check=False)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+")
    parser.add_argument("--portkit", action="append", required=True, help="NAME=COMMAND, once per build compared")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("/tmp/walk-speed"))
    parser.add_argument("--builds", type=Path, default=BUILDS, help="where NAME/compile_commands.json are")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for project in args.projects:
        build = args.builds / project
        contenders = {"clang": clang_run(build / "compile_commands.json")}
        for given in args.portkit:
            name, _, command = given.partition("=")
            contenders[name] = portkit_run(command, build, args.out / f"{project}-{name}.json")
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for run in contenders.values():
            run()  # warm-up: the page cache, libclang loaded
        names = list(contenders)
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for r in range(args.rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                start, used = time.perf_counter(), _children_cpu()
                contenders[name]()
                times[name].append(time.perf_counter() - start)
                cpu[name].append(_children_cpu() - used)
        for what, seconds in (("wall", times), ("cpu", cpu)):
            medians = {name: statistics.median(t) for name, t in seconds.items()}
            clang = medians["clang"]
            cells = ", ".join(f"{n} {medians[n]:.2f} s ({medians[n] / clang:.2f}x)" for n in names if n != "clang")
            rounds = json.dumps({n: [round(x, 2) for x in t] for n, t in seconds.items()})
            print(f"{project} {what}: clang {clang:.2f} s, {cells}; rounds {rounds}", flush=True)


def _children_cpu() -> float:
    """CPU seconds (user and system) of the processes this one has waited for:
    what a run cost, whatever else the shared machine was doing (its wall time
    grows with the load, clang's many short processes more than portkit's two
    workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    main()
