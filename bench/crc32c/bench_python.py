"""CRC32C from Python, side by side: portkit.crc32c against the google-crc32c
and crc32c packages. Same buffer for all, turns in rotating order, medians
over rounds; each sample times enough calls to span ~5 ms.

    python bench/crc32c/bench_python.py [--rounds N] [--markdown] [SIZE ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import google_crc32c

import crc32c as icrar_crc32c

try:
    from portkit import crc32c as portkit_crc32c
except ImportError:  # the package does not re-export it yet
    from portkit._crc32c import crc32c as portkit_crc32c

DEFAULT_SIZES = [64, 4 << 10, 64 << 10, 1 << 20, 64 << 20]


def parse_size(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20}
    suffix = text[-1].lower()
    return int(text[:-1]) * units[suffix] if suffix in units else int(text)


def human(size: int) -> str:
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1 << 10 and size % (1 << 10) == 0:
        return f"{size >> 10} KiB"
    return f"{size} B"


def calls_for(fn: Callable[[bytes], int], data: bytes) -> int:
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn(data)
        if time.perf_counter() - start > 5e-3:
            return n
        n *= 2


def sample(fn: Callable[[bytes], int], data: bytes, n: int) -> float:
    start = time.perf_counter_ns()
    for _ in range(n):
        fn(data)
    return (time.perf_counter_ns() - start) / n * 1e-9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=parse_size, default=DEFAULT_SIZES)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    contenders: list[tuple[str, Callable[[bytes], int]]] = [
        ("portkit", portkit_crc32c),
        ("google-crc32c", google_crc32c.value),
        ("crc32c", icrar_crc32c.crc32c),
    ]
    print(f"google-crc32c implementation: {google_crc32c.implementation}; rounds {args.rounds}")
    if args.markdown:
        print(
            "| size | "
            + " | ".join(f"{name} GB/s (ns/call)" for name, _ in contenders)
            + " | portkit / google | portkit / crc32c |"
        )
        print("|---:|" + "---:|" * (len(contenders) + 2))
    for size in args.sizes:
        data = bytes((i * 2654435761 >> 7) & 0xFF for i in range(min(size, 1 << 16))) * (size // (1 << 16) or 1)
        data = data[:size].ljust(size, b"\x5a")
        want = portkit_crc32c(data)
        for name, fn in contenders:
            assert fn(data) == want, f"{name} disagrees at {size} bytes"
        calls = [calls_for(fn, data) for _, fn in contenders]
        secs: list[list[float]] = [[] for _ in contenders]
        for r in range(args.rounds):
            for k in range(len(contenders)):
                j = (r + k) % len(contenders)
                secs[j].append(sample(contenders[j][1], data, calls[j]))
        medians = [statistics.median(s) for s in secs]
        cells = []
        for m, s in zip(medians, secs, strict=True):
            cells.append(
                f"{size / m / 1e9:.2f} ({m * 1e9:.0f} ns; {size / max(s) / 1e9:.2f}-{size / min(s) / 1e9:.2f})"
            )
        ratios = f"{medians[1] / medians[0]:.2f} | {medians[2] / medians[0]:.2f}"
        if args.markdown:
            print(f"| {human(size)} | " + " | ".join(cells) + f" | {ratios} |")
        else:
            print(f"{human(size):>8}  " + "  ".join(f"{n}: {c}" for (n, _), c in zip(contenders, cells, strict=True)))


if __name__ == "__main__":
    main()
