"""CRC32C kernels of the i686 build against the x86-64 build's, on this CPU.

The two builds are two programs (bench_impls of each), so they take turns:
each round runs one, then the other (in alternating order), each timing
every kernel it has over a few inner repeats; the table shows the median
over rounds, GB/s = 1e9 bytes/s, and ratios of medians.

    python bench/crc32c/bench_i686.py [--rounds N] [--write docs/benchmarks.md] I686_BENCH X86_64_BENCH [SIZE ...]

bench/crc32c/i686.sh builds both and runs this.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchlib import machine, write_section

BEGIN, END = "<!-- crc32c-i686:begin -->", "<!-- crc32c-i686:end -->"

DEFAULT_SIZES = ["64", "256", "1k", "4k", "64k", "1m", "64m"]
# (build, kernel) columns, then ratios as (numerator, denominator) columns
COLUMNS = [
    ("i686", "portable"),
    ("i686", "sse42"),
    ("i686", "avx2_vpclmul"),
    ("x86_64", "sse42"),
    ("x86_64", "avx2_vpclmul"),
    ("x86_64", "avx2_fused"),
]
RATIOS = [
    ("i686 sse42 / portable", ("i686", "sse42"), ("i686", "portable")),
    ("i686 avx2_vpclmul / sse42", ("i686", "avx2_vpclmul"), ("i686", "sse42")),
    ("sse42 i686 / x86_64", ("i686", "sse42"), ("x86_64", "sse42")),
    ("avx2_vpclmul i686 / x86_64", ("i686", "avx2_vpclmul"), ("x86_64", "avx2_vpclmul")),
]


def human(size: int) -> str:
    for shift, unit in ((20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def run_once(program: Path, sizes: list[str], inner: int) -> tuple[str, dict[tuple[str, int], float]]:
    """One bench_impls run: (selected kernel, {(kernel, bytes): median GB/s})."""
    out = subprocess.run([str(program), "-r", str(inner), *sizes], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    selected = lines[0].removeprefix("selected: ").strip()
    names = lines[1].split()[1:]
    results = {}
    for line in lines[2:]:
        size = int(line.split()[0])
        medians = [float(m) for m in re.findall(r"([\d.]+) \[[^]]*\]", line)]  # "MEDIAN [MIN-MAX]" per kernel
        for name, value in zip(names, medians, strict=True):
            results[(name, size)] = value
    return selected, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--inner", type=int, default=5, help="repeats inside each bench_impls run")
    parser.add_argument("--write", type=Path, help="replace the i686 CRC32C section of this markdown file")
    parser.add_argument("i686", type=Path)
    parser.add_argument("x86_64", type=Path)
    parser.add_argument("sizes", nargs="*", default=DEFAULT_SIZES)
    args = parser.parse_args()
    programs = {"i686": args.i686, "x86_64": args.x86_64}
    samples: dict[tuple[str, str, int], list[float]] = {}
    selected = {}
    for r in range(args.rounds):
        order = list(programs) if r % 2 == 0 else list(reversed(programs))
        for build in order:
            selected[build], results = run_once(programs[build], args.sizes, args.inner)
            for (kernel, size), value in results.items():
                samples.setdefault((build, kernel, size), []).append(value)
    section = markdown(samples, selected, args.rounds, args.inner)
    print(section)
    if args.write:
        write_section(args.write, section, BEGIN, END)


def markdown(
    samples: dict[tuple[str, str, int], list[float]], selected: dict[str, str], rounds: int, inner: int
) -> str:
    sizes = sorted({size for _, _, size in samples})
    median = {key: statistics.median(values) for key, values in samples.items()}
    lines = [
        BEGIN,
        f"Machine: {machine()}. Selected: i686 {selected['i686']}, x86_64 {selected['x86_64']}.",
        f"{rounds} alternating rounds of {inner} repeats each; medians over rounds, GB/s.",
        "",
    ]
    heads = [f"{b} {k}" for b, k in COLUMNS] + [title for title, _, _ in RATIOS]
    lines += ["| size | " + " | ".join(heads) + " |", "|---:|" + "---:|" * len(heads)]
    for size in sizes:
        cells = [f"{median[(b, k, size)]:.2f}" if (b, k, size) in median else "-" for b, k in COLUMNS]
        for _, a, b in RATIOS:
            if (*a, size) in median and (*b, size) in median:
                cells.append(f"{median[(*a, size)] / median[(*b, size)]:.2f}")
            else:
                cells.append("-")
        lines.append(f"| {human(size)} | " + " | ".join(cells) + " |")
    lines.append(END)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
