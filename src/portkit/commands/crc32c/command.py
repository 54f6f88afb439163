"""`portkit crc32c`: the CRC32C (Castagnoli: iSCSI, SCTP, ext4, Btrfs) of files,
printed like sha256sum; `--check LIST` verifies such a list; `--bench` measures
every implementation the target's CPU can run (under qemu-user its timings are
the emulator's, and the report says so).

Everything runs on --target: the agent (`portkit-target crc32c FILE... |
--check LIST | --bench`) reads the files (with qemu-user, this host's files; `-`
is portkit's stdin), parses the list and computes the sums; the host renders
its document. The Python API `portkit.crc32c()` is the same library in-process.

JSON (`--format json`) is the agent's document plus "target" (the --target
spec) and "emulated": "portkit.crc32c/1" for sums and --check,
"portkit.crc32c-bench/1" for --bench (docs/formats.md).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from portkit.commands.crc32c.render import render_bench, render_sums
from portkit.core.command import add_command, refuse_foreign_options, seconds
from portkit.core.errors import BadInput, Exit
from portkit.core.output import deliver, emit
from portkit.core.target import START_SECONDS, AgentCall, run_agent

SCHEMA = "portkit.crc32c/1"
SCHEMA_BENCH = "portkit.crc32c-bench/1"
PROG = "crc32c"  # how errors name the command (the cli says "portkit: error:")
OWNERS = {"sizes": "--bench", "seconds": "--bench"}  # options by the mode that takes them
DEFAULT_SIZES = (64, 4 << 10, 64 << 10, 1 << 20, 64 << 20)
DEFAULT_SECONDS = 0.2
MAX_SIZES = 32
MAX_SIZE = 1 << 30
# For time limits: a slow board reading a slow card, the most kernels any CPU
# offers, and how long a bench cell takes for its time budget (calibration, repeats).
SLOW_BYTES_PER_SECOND = 4e6
MAX_KERNELS = 10
CELL_OVERHEAD = 4
STDIN_SECONDS = 3600.0  # the bytes on stdin come as fast as the producer makes them


SUMMARY = "CRC32C of files (like sha256sum), --check a list, --bench the implementations"
EXAMPLES = (
    "examples:\n"
    "  portkit crc32c image.bin > image.crc        e3069283  image.bin\n"
    "  portkit crc32c --check image.crc            image.bin: OK (exit 1 on a mismatch)\n"
    "  portkit crc32c --target qemu-arm image.bin  the same sum, by the ARM agent under qemu-user\n"
    "  portkit crc32c --bench --target qemu-aarch64:cortex-a53 --sizes 64,4k,1m"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "crc32c", SUMMARY, __doc__, EXAMPLES, run, runs_on="agent")
    parser.add_argument("files", nargs="*", metavar="FILE", help="files to sum; - or none: stdin")
    parser.add_argument("-c", "--check", metavar="LIST", help="verify the '<crc>  FILE' lines of LIST (-: stdin)")
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
    mode = "--bench" if args.bench else "--check" if args.check else "sums"
    refuse_foreign_options(args, PROG, mode, OWNERS)
    if args.bench and (args.files or args.check):
        raise BadInput(f"{PROG}: --bench takes no files and no --check")
    if args.check and args.files:
        raise BadInput(f"{PROG}: --check LIST takes no other files")
    return run_bench(args) if args.bench else run_sums(args)


def run_sums(args: argparse.Namespace) -> int:
    """Sums or --check by the agent. Its exit 2 (unreadable files, malformed
    lines) still comes with every result; its stderr lines (one per unreadable
    file, one for the malformed lines, one for the mismatches) are relayed."""
    call = AgentCall(
        ("crc32c", *(("--check", args.check) if args.check else ())),
        SCHEMA,
        sums_timeout(args.check, args.files),
        operands=tuple(args.files),
        document_exits=frozenset({Exit.USAGE}),
        # the list and the files it names are read on the target (a VM is given them)
        inputs=(args.check, *_names_in_list(Path(args.check))) if args.check and args.check != "-" else (),
    )
    result = run_agent(args, call)
    document = result.document
    if args.format == "json":
        emit("json", document, lambda _: [], args.output)
        return result.exit_code
    # Names go out verbatim: never through rich, which would read [..] in them as markup.
    deliver(render_sums(document), args.output)
    return result.exit_code


def sums_timeout(check: str | None, files: list[str]) -> float:
    """Start-up plus the bytes the agent will read, at a slow board's pace.
    The files a list names are estimated from its lines (a wrong guess only
    changes the limit; the agent is what parses the list)."""
    if check is not None:
        if check == "-":
            return START_SECONDS + STDIN_SECONDS
        files = _names_in_list(Path(check))
    if not files or "-" in files:
        return START_SECONDS + STDIN_SECONDS
    return START_SECONDS + sum(_size(name) for name in files) / SLOW_BYTES_PER_SECOND


def _names_in_list(path: Path) -> list[str]:
    try:
        lines = path.read_bytes().splitlines()
    except OSError:
        return []  # the agent says why
    # A line holding a NUL byte names no file (the agent finds it malformed).
    return [os.fsdecode(line[10:].rstrip(b"\r")) for line in lines if len(line) > 10 and b"\0" not in line]


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:
        return 0


def run_bench(args: argparse.Namespace) -> int:
    argv = ["crc32c", "--bench"]
    if args.sizes is not None:
        argv += ["--sizes", ",".join(map(str, args.sizes))]
    if args.seconds is not None:
        argv += ["--seconds", repr(args.seconds)]
    result = run_agent(args, AgentCall(tuple(argv), SCHEMA_BENCH, bench_timeout(args.sizes, args.seconds)))
    emit(args.format, result.document, render_bench, args.output)
    return result.exit_code


def bench_timeout(sizes: tuple[int, ...] | None, budget: float | None) -> float:
    """Start-up, each kernel's time budget per size, and a slow pass over each buffer."""
    sizes = sizes or DEFAULT_SIZES
    cells = len(sizes) * MAX_KERNELS * CELL_OVERHEAD * (budget or DEFAULT_SECONDS)
    return START_SECONDS + cells + sum(sizes) * MAX_KERNELS / SLOW_BYTES_PER_SECOND
