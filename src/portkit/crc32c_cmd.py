"""`portkit crc32c`: the CRC32C (Castagnoli: iSCSI, SCTP, ext4, Btrfs) of files,
printed like sha256sum; `--check LIST` verifies such a list; `--bench` measures
every implementation the target's CPU can run.

Everything runs on --target: the agent (`portkit-target crc32c FILE... |
--check LIST | --bench`) reads the files (with qemu-user, this host's files; `-`
is portkit's stdin), parses the list and computes the sums; the host renders
its document. The Python API `portkit.crc32c()` is the same library in-process.

JSON (`--format json`) is the agent's document plus "target" (the --target
spec): "portkit.crc32c/1" for sums and --check, "portkit.crc32c-bench/1" for
--bench (docs/formats.md, native/crc32c/cmd_crc32c.c).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from portkit.commands import add_command
from portkit.errors import BadInput, Exit
from portkit.output import deliver, emit, fields
from portkit.target import agent_string, target_from_args

if TYPE_CHECKING:
    from rich.console import RenderableType

SCHEMA = "portkit.crc32c/1"
SCHEMA_BENCH = "portkit.crc32c-bench/1"
PROG = "portkit crc32c"


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    parser = add_command(
        subparsers,
        common,
        "crc32c",
        "CRC32C of files (like sha256sum), --check a list, --bench the implementations",
        __doc__,
        (
            "examples:\n"
            "  portkit crc32c image.bin > image.crc        e3069283  image.bin\n"
            "  portkit crc32c --check image.crc            image.bin: OK (exit 1 on a mismatch)\n"
            "  portkit crc32c --target qemu-arm image.bin  the same sum, by the ARM agent under qemu-user\n"
            "  portkit crc32c --bench --target qemu-aarch64:cortex-a53 --sizes 64,4k,1m"
        ),
        run,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="files to sum; - or none: stdin")
    parser.add_argument("-c", "--check", metavar="LIST", help="verify the '<crc>  FILE' lines of LIST (-: stdin)")
    group = parser.add_argument_group("bench")
    group.add_argument("--bench", action="store_true", help="throughput of every implementation the CPU can run")
    group.add_argument("--sizes", metavar="N,N,...", help="buffer sizes, k/m suffixes (default 64,4k,64k,1m,64m)")
    group.add_argument("--seconds", type=float, metavar="S", help="time per implementation and size (default 0.2)")


def run(args: argparse.Namespace) -> int:
    if args.bench:
        if args.files or args.check:
            raise BadInput(f"{PROG}: --bench takes no files and no --check")
        return run_bench(args)
    if args.sizes is not None or args.seconds is not None:
        raise BadInput(f"{PROG}: --sizes and --seconds are --bench options")
    if args.check and args.files:
        raise BadInput(f"{PROG}: --check LIST takes no other files")
    return run_sums(args)


# ---------------------------------------------------------------- sums


def run_sums(args: argparse.Namespace) -> int:
    """Sums or --check by the agent. Its exit 2 (unreadable files, malformed
    lines) still comes with every result, and its stderr has one line per problem."""
    argv = ["crc32c", *(["--check", args.check] if args.check else [])]
    result = target_from_args(args).run(argv, SCHEMA, operands=args.files, document_exits={Exit.USAGE})
    document = result.document
    document["target"] = args.target
    if args.format == "json":
        emit("json", document, lambda _: [], args.output)
        return result.exit_code
    # Names go out verbatim: never through rich, which would read [..] in them as markup.
    deliver(render_sums(document), args.output)
    failed = document["check"]["failed"] if document["check"] else 0
    if failed:
        s = "" if failed == 1 else "s"
        print(f"{PROG}: WARNING: {failed} computed checksum{s} did NOT match", file=sys.stderr)
    return result.exit_code


def render_sums(document: dict) -> str:
    """'<crc>  NAME' per file, or with --check 'NAME: OK|FAILED' per entry of the list, in its order."""
    if document["check"] is None:
        return "".join(f"{int(f['crc32c'], 16):08x}  {agent_string(f['path'])}\n" for f in document["files"])
    # An agent older than list_line gets its files in the document's order rather than a traceback.
    verdicts = [(f.get("list_line", 0), f["path"], "OK" if f["ok"] else "FAILED") for f in document["files"]]
    # An unreadable entry is an error with the list line that named it.
    verdicts += [(e["list_line"], e["path"], "FAILED open or read") for e in document["errors"] if "list_line" in e]
    verdicts.sort(key=lambda verdict: verdict[0])
    return "".join(f"{agent_string(path)}: {verdict}\n" for _, path, verdict in verdicts)


# ---------------------------------------------------------------- bench


def run_bench(args: argparse.Namespace) -> int:
    argv = ["crc32c", "--bench"]
    if args.sizes is not None:
        argv += ["--sizes", args.sizes]
    if args.seconds is not None:
        argv += ["--seconds", repr(args.seconds)]
    result = target_from_args(args).run(argv, SCHEMA_BENCH)
    document = result.document
    document["target"] = args.target
    emit(args.format, document, render_bench, args.output)
    return result.exit_code


def size_label(size: int) -> str:
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def render_bench(document: dict) -> list[RenderableType]:
    from rich.table import Table
    from rich.text import Text

    agent = document["agent"]
    results = {(r["implementation"], r["size"]): r for r in document["results"]}
    repeats = sorted({len(r["repeats"]) for r in document["results"]})
    counts = f"{repeats[0]}" if len(repeats) == 1 else f"{repeats[0]}-{repeats[-1]}" if repeats else "0"
    rows: list[tuple[str, RenderableType]] = [
        ("target", f"{document['target']} ({agent['arch']}, {agent['data_model']})"),
        ("selected", Text.assemble((document["implementation"], "bold green"), " (marked *)")),
        ("measured", f"median of {counts} repeats of at least 2 ms each; GB/s = 1e9 bytes/s"),
    ]
    out: list[RenderableType] = [fields(rows)]
    for title, key, fmt in (("GB/s", "gb_per_s", "{:.2f}"), ("ns per call", "ns_per_call", "{:.1f}")):
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column(title, no_wrap=True)
        for size in document["sizes"]:
            table.add_column(size_label(size), justify="right", no_wrap=True)
        for name in document["implementations"]:
            selected = name == document["selected"]
            cells = [fmt.format(results[name, size][key]) for size in document["sizes"]]
            label = f"* {name}" if selected else f"  {name}"
            style = "bold green" if selected else ""
            table.add_row(label, *cells, style=style)
        out += ["", table]
    return out
