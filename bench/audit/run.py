"""portkit audit rootfs against lddtree, scanelf and a readelf loop on a
large real image, in one run (images.py builds it once under build/bench/).

    python bench/audit/run.py [--repeat 3] [--readelf-loop] [--write]

The peers, each on the same files:

- lddtree -R (pax-utils, Python with pyelftools): each file's NEEDED
  resolved inside the root, given every file under usr/;
- scanelf -R (pax-utils, C): TEXTREL, executable stacks and RPATHs;
- readelf_loop.sh (--readelf-loop: it takes minutes): the shell loop
  Buildroot's check-bin-arch and Yocto's insane.bbclass amount to.

Each is timed --repeat times (median; the peak resident memory of portkit's
own process beside it), then portkit's findings on the image are counted by
rule and severity, its errors listed, and the planted copy checked: every
planted defect must be reported by the rules images.PLANTED names. The
tables are printed as Markdown with the machine line; --write also puts
them into docs/benchmarks.md between its audit-bench markers (the verdicts
around them are written by hand, from these lists).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON = sys.executable
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(HERE))
from images import PLANTED, archive, large_image, planted_image  # noqa: E402

from benchlib import machine, write_section  # noqa: E402

BEGIN, END = "<!-- audit-bench:begin -->\n", "<!-- audit-bench:end -->"
PORTKIT = [PYTHON, "-m", "portkit", "audit", "rootfs", "--format", "json", "--fail-on", "never", "-q"]


def timed(command: list[str], repeat: int) -> tuple[float, int, str]:
    """(median seconds, the largest peak resident memory in KiB of the process
    itself, the last run's stdout)."""
    times, peaks, out = [], [], ""
    for _ in range(repeat):
        with tempfile.TemporaryFile("w+") as stdout:
            start = time.perf_counter()
            proc = subprocess.Popen(command, stdout=stdout, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - start)
            peaks.append(usage.ru_maxrss)
            stdout.seek(0)
            out = stdout.read()
    return statistics.median(times), max(peaks), out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bench-dir", type=Path, default=ROOT / "build" / "bench")
    parser.add_argument("--readelf-loop", action="store_true", help="time the readelf loop too (minutes a run)")
    parser.add_argument("--write", action="store_true", help="put the tables into docs/benchmarks.md")
    parser.add_argument("--live", action="store_true", help="only time `portkit audit rootfs /`, this machine")
    args = parser.parse_args()
    if args.live:
        print(report_live(args.repeat))
        return
    image = large_image(args.bench_dir)
    tarball = archive(image)
    planted = planted_image(image)
    files = sorted(
        "/" + p.relative_to(image).as_posix()
        for top in ("usr/bin", "usr/sbin", "usr/lib", "usr/libexec")
        for p in (image / top).rglob("*")
        if p.is_file() and not p.is_symlink()
    )
    runs = {
        "portkit audit rootfs DIR": timed([*PORTKIT, str(image)], args.repeat),
        "portkit audit rootfs ARCHIVE (.tar.gz)": timed([*PORTKIT, str(tarball)], args.repeat),
        "lddtree -R (NEEDED resolved)": timed(
            [PYTHON, "/usr/bin/lddtree", "-R", str(image), "--skip-non-elfs", *files], args.repeat
        ),
        "scanelf -R (TEXTREL, stack, RPATH)": timed(
            ["scanelf", "-RqBF", "%t %e %r %F", "-T", "-e", "-r", str(image)], args.repeat
        ),
    }
    # the floor of any reader of the archive: decompressing it, and nothing else
    runs["gzip -dc ARCHIVE > /dev/null (decompression alone)"] = timed(["sh", "-c", f"gzip -dc '{tarball}' >/dev/null"],
                                                                       args.repeat)  # fmt: skip
    if args.readelf_loop:
        runs["readelf loop (readelf_loop.sh)"] = timed(["bash", str(HERE / "readelf_loop.sh"), str(image)], 1)
    document = json.loads(runs["portkit audit rootfs DIR"][2])
    same = json.loads(runs["portkit audit rootfs ARCHIVE (.tar.gz)"][2])["findings"] == document["findings"]
    lines = [report_speed(args, image, tarball, document, runs, same), report_findings(document, runs)]
    lines.append(report_planted(planted, json.loads(subprocess.run([*PORTKIT, str(planted)], capture_output=True,
                                                                    text=True, check=True).stdout)))  # fmt: skip
    section = BEGIN + "\n".join(lines) + END
    print(section)
    if args.write:
        write_section(ROOT / "docs" / "benchmarks.md", section + "\n", BEGIN, END)


def report_live(repeat: int) -> str:
    """`portkit audit rootfs /`: what it read and found, and how long it took."""
    seconds, peak, out = timed([*PORTKIT, "/"], repeat)
    document = json.loads(out)
    rules = Counter(f["rule"] for f in document["findings"])
    left = document["left_out"]
    return (
        f"Machine: {machine()}; median of {repeat} runs: {seconds:.1f} s, {peak / 1024:.0f} MiB; "
        f"{document['image']['entries']} entries read, {document['files']['elf']} ELF files; findings by rule "
        f"{dict(sorted(rules.items()))}; left out: {len(left['sysroots'])} sysroots, {len(left['other_abis'])} "
        f"other ABIs' library directories, {len(left['not_read'])} top directories not read"
    )


def report_speed(args, image: Path, tarball: Path, document: dict, runs: dict, same: bool) -> str:
    files = document["files"]
    base = runs["portkit audit rootfs DIR"][0]
    out = [
        f"Machine: {machine()}, Python {platform.python_version()}; image: {document['image']['entries']} "
        f"entries, {files['elf']} ELF files ({files['modules']} kernel modules, {files['debug']} debug files), "
        f"{tarball.stat().st_size // (1 << 20)} MiB as .tar.gz; median of {args.repeat} runs "
        "(the readelf loop: one).\n",
        "| tool | median s | / portkit DIR | peak memory MiB |",
        "|---|---:|---:|---:|",
    ]
    for name, (seconds, peak, _) in runs.items():
        memory = f"{peak / 1024:.0f}" if name.startswith("portkit") else ""
        out.append(f"| {name} | {seconds:.2f} | {seconds / base:.1f}x | {memory} |")
    out.append(f"\nThe archive gives the same findings as the directory: {'yes' if same else 'NO'}. portkit's "
               "memory is its main process's (the workers that read a directory hold a chunk each).\n")  # fmt: skip
    return "\n".join(out)


def report_findings(document: dict, runs: dict) -> str:
    by_rule = Counter((f["rule"], f["severity"]) for f in document["findings"])
    out = ["| rule | severity | findings |", "|---|---|---:|"]
    out += [f"| {rule} | {severity} | {n} |" for (rule, severity), n in sorted(by_rule.items())]
    errors = [f for f in document["findings"] if f["severity"] == "error"]
    out.append(f"\nEvery error ({len(errors)}):\n")
    out += [f"- `{f['location']['path']}` {f['rule']}: {f['message']}" for f in errors]
    lddtree = runs["lddtree -R (NEEDED resolved)"][2]
    unresolved = {line.split("=>")[0].strip() for line in lddtree.splitlines() if line.endswith("=> None")}
    scanelf = runs["scanelf -R (TEXTREL, stack, RPATH)"][2].splitlines()
    rules = Counter(f["rule"] for f in document["findings"])
    out.append("\n| check | portkit | lddtree | scanelf |\n|---|---:|---:|---:|")
    missing = sum(rules[r] for r in ("PKR201", "PKR202", "PKR206", "PKR207"))
    out.append(f"| NEEDED not found (portkit: PKR201, 202, 206, 207; lddtree: lines, and names) | {missing} | "
               f"{lddtree.count('=> None')} ({len(unresolved)}) | |")  # fmt: skip
    out.append(f"| TEXTREL | {rules['PKR601']} | | {sum('TEXTREL' in line for line in scanelf)} |")
    out.append(f"| executable stack | {rules['PKR602']} | | {sum('RWX' in line for line in scanelf)} |")
    rpaths = sum(any(field[0] in "/$" for field in line.split()[:-1]) for line in scanelf)
    problems = sum(rules[r] for r in ("PKR301", "PKR302", "PKR303", "PKR304"))
    out.append(f"| RPATH/RUNPATH (portkit: those with a problem; scanelf: all) | {problems} | | {rpaths} |\n")
    return "\n".join(out)


def report_planted(planted: Path, document: dict) -> str:
    found: dict[str, set[str]] = {}
    for f in document["findings"]:
        if f["severity"] != "note":
            found.setdefault(f["location"]["path"], set()).add(f["rule"])
    out = [f"Planted into a copy ({planted.name}, images.py): each defect and whether it is still found.\n",
           "| planted | expected | reported (errors, warnings) | found |", "|---|---|---|---|"]  # fmt: skip
    for path, expected in PLANTED.items():
        reported = found.get(path, set())
        out.append(f"| `{path}` | {', '.join(sorted(expected))} | {', '.join(sorted(reported)) or '-'} | "
                   f"{'yes' if expected <= reported else 'NO'} |")  # fmt: skip
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
