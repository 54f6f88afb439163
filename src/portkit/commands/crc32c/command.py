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

# A module per mode beside this file: sums.py (sums and --check) and
# bench.py (--bench). The mode is chosen by flags, as sha256sum's users
# expect (`portkit crc32c FILE`, `--check LIST`), not by a subcommand.

from __future__ import annotations

import argparse

from portkit.commands.crc32c import bench, sums
from portkit.core.command import add_command, refuse_foreign_options
from portkit.core.errors import BadInput

PROG = "crc32c"  # how errors name the command (the cli says "portkit: error:")
OWNERS = dict.fromkeys(bench.OPTIONS, "--bench")  # options by the mode that takes them

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
    sums.add_options(parser)
    bench.add_options(parser)


def run(args: argparse.Namespace) -> int:
    mode = "--bench" if args.bench else "--check" if args.check else "sums"
    refuse_foreign_options(args, PROG, mode, OWNERS)
    if args.bench and (args.files or args.check):
        raise BadInput(f"{PROG}: --bench takes no files and no --check")
    if args.check and args.files:
        raise BadInput(f"{PROG}: --check LIST takes no other files")
    return bench.run(args) if args.bench else sums.run(args)
