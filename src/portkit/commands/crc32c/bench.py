"""`portkit crc32c --bench`: the throughput of every implementation the
target's CPU can run, by the agent (under qemu-user, the emulator's)."""

from __future__ import annotations

import argparse

from portkit.commands.crc32c.render import render_bench
from portkit.commands.crc32c.sums import SLOW_BYTES_PER_SECOND
from portkit.core.command import seconds
from portkit.core.output import emit
from portkit.core.target import START_SECONDS, AgentCall
from portkit.core.targets import run_agent

SCHEMA = "portkit.crc32c-bench/1"
OPTIONS = ("sizes", "seconds")  # by argparse dest: refused without --bench
DEFAULT_SIZES = (64, 4 << 10, 64 << 10, 1 << 20, 64 << 20)
DEFAULT_SECONDS = 0.2
MAX_SIZES = 32
MAX_SIZE = 1 << 30
# For the time limit: the most kernels any CPU offers, and how long a cell
# takes for its time budget (calibration, repeats).
MAX_KERNELS = 10
CELL_OVERHEAD = 4


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("bench")
    group.add_argument("--bench", action="store_true", help="throughput of every implementation the CPU can run")
    group.add_argument(
        "--sizes", type=sizes, metavar="N,N,...", help="buffer sizes, k/m suffixes (default 64,4k,64k,1m,64m)"
    )
    group.add_argument(
        "--seconds",
        type=seconds(3600),
        metavar="S",
        help=f"time per implementation and size (default {DEFAULT_SECONDS})",
    )


def sizes(text: str) -> tuple[int, ...]:
    """--sizes as the agent reads it: bytes with an optional k (KiB) or m (MiB), 1 byte to 1 GiB each."""
    out = []
    for item in text.split(","):
        if not item:
            continue
        shift = {"k": 10, "m": 20}.get(item[-1].lower(), 0)
        digits = item[:-1] if shift else item
        if not digits.isdigit() or not 1 <= int(digits) << shift <= MAX_SIZE:
            raise argparse.ArgumentTypeError(f"'{item}' is not a size from 1 byte to 1 GiB (e.g. 64, 4k, 1m)")
        out.append(int(digits) << shift)
    if not out:
        raise argparse.ArgumentTypeError("needs at least one size")
    if len(out) > MAX_SIZES:
        raise argparse.ArgumentTypeError(f"more than {MAX_SIZES} sizes")
    return tuple(out)


def run(args: argparse.Namespace) -> int:
    argv = ["crc32c", "--bench"]
    if args.sizes is not None:
        argv += ["--sizes", ",".join(map(str, args.sizes))]
    if args.seconds is not None:
        argv += ["--seconds", repr(args.seconds)]
    result = run_agent(args, AgentCall(tuple(argv), SCHEMA, timeout(args.sizes, args.seconds)))
    emit(args.format, result.document, render_bench, args.output)
    return result.exit_code


def timeout(sizes: tuple[int, ...] | None, budget: float | None) -> float:
    """Start-up, each kernel's time budget per size, and a slow pass over each buffer."""
    sizes = sizes or DEFAULT_SIZES
    cells = len(sizes) * MAX_KERNELS * CELL_OVERHEAD * (budget or DEFAULT_SECONDS)
    return START_SECONDS + cells + sum(sizes) * MAX_KERNELS / SLOW_BYTES_PER_SECOND
