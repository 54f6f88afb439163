"""`portkit crc32c`: the CRC32C (Castagnoli: iSCSI, SCTP, ext4, Btrfs) of files,
printed like sha256sum; `--check LIST` verifies such a list; `--bench` measures
every implementation the target's CPU can run, on that target.

The checksums of the host's files are computed here, with the `portkit.crc32c`
extension; only `--bench` runs the agent (`portkit-target crc32c --bench`).

JSON (`--format json`) follows the agent's schemas (docs in
native/crc32c/cmd_crc32c.c): "portkit.crc32c/1" for sums and --check (computed
here, so without the agent's "agent" block), "portkit.crc32c-bench/1" for --bench
(the agent's document plus "target").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

import portkit
from portkit.commands import add_command
from portkit.errors import BadInput, Exit
from portkit.output import deliver, emit, fields
from portkit.target import target_from_args

SCHEMA = "portkit.crc32c/1"
SCHEMA_BENCH = "portkit.crc32c-bench/1"
CHUNK = 1 << 20
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
            "  portkit crc32c image.bin > image.crc       e3069283  image.bin\n"
            "  portkit crc32c --check image.crc           image.bin: OK (exit 1 on a mismatch)\n"
            "  portkit crc32c --bench --target qemu-aarch64:cortex-a53 --sizes 64,4k,1m"
        ),
        run,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="files to sum; - or none: stdin")
    parser.add_argument("-c", "--check", metavar="LIST", help="verify the '<crc>  FILE' lines of LIST (-: stdin)")
    group = parser.add_argument_group("bench (runs the agent on --target)")
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
    if args.target != "local" or args.agent is not None:
        raise BadInput(f"{PROG}: --target and --agent apply to --bench; checksums are computed on this host")
    if args.check and args.files:
        raise BadInput(f"{PROG}: --check LIST takes no other files")
    result = Sums(check=args.check)
    if args.check:
        result.check_list(args.check)
    else:
        for path in args.files or ["-"]:
            result.add(path)
    if args.format == "json":
        emit("json", result.document(), lambda _: [], args.output)
    else:  # sums go out verbatim: never through rich, which would read [..] in names as markup
        deliver("".join(result.lines), args.output)
    if args.format != "json" and result.failed:
        s = "" if result.failed == 1 else "s"
        print(f"{PROG}: WARNING: {result.failed} computed checksum{s} did NOT match", file=sys.stderr)
    return result.exit_code()


# ---------------------------------------------------------------- sums


@contextmanager
def _opened(path: str) -> Iterator[BinaryIO]:
    if path == "-":
        yield sys.stdin.buffer
    else:
        with open(path, "rb") as f:
            yield f


def crc32c_file(path: str) -> tuple[int, int]:
    """(CRC32C, bytes) of a file ("-": stdin), read in 1 MiB chunks."""
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    crc = size = 0
    with _opened(path) as f:
        while n := f.readinto(buffer):
            crc = portkit.crc32c(view[:n], crc)
            size += n
    return crc, size


def parse_line(line: str) -> tuple[int, str] | None:
    """'<8 hex digits>  NAME' (or ' *NAME', sha256sum's binary mark) -> (crc, name)."""
    line = line.rstrip("\r\n")
    digits = line[:8]
    if len(line) < 11 or line[8] != " " or line[9] not in " *":
        return None
    if not all(c in "0123456789abcdefABCDEF" for c in digits):
        return None
    return int(digits, 16), line[10:]


class Sums:
    """The files done so far: text lines, the JSON items and the counts."""

    def __init__(self, check: str | None) -> None:
        self.check = check
        self.lines: list[str] = []
        self.files: list[dict] = []
        self.errors: list[dict] = []
        self.ok = self.failed = self.unreadable = self.malformed = 0

    def error(self, path: str, message: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line else path
        print(f"{PROG}: {where}: {message}", file=sys.stderr)
        self.errors.append({"path": path, "line": line, "message": message})

    def _crc(self, path: str) -> tuple[int, int] | None:
        try:
            return crc32c_file(path)
        except OSError as err:
            self.unreadable += 1
            self.error(path, err.strerror or str(err))
            return None

    def add(self, path: str) -> None:
        result = self._crc(path)
        if result is None:
            return
        crc, size = result
        self.lines.append(f"{crc:08x}  {path}\n")
        self.files.append({"path": path, "crc32c": f"0x{crc:08x}", "bytes": size})

    def check_list(self, list_path: str) -> None:
        try:
            with _opened(list_path) as f:
                text = f.read().decode("utf-8", errors="surrogateescape")
        except OSError as err:
            raise BadInput(f"{list_path}: {err.strerror}") from None
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip("\r\n"):
                continue  # blank lines are not entries
            entry = parse_line(line)
            if entry is None:
                self.malformed += 1
                self.error(list_path, "improperly formatted CRC32C line", number)
                continue
            expected, name = entry
            result = self._crc(name)
            if result is None:
                self.lines.append(f"{name}: FAILED open or read\n")
                continue
            crc, size = result
            ok = crc == expected
            self.ok += ok
            self.failed += not ok
            self.lines.append(f"{name}: {'OK' if ok else 'FAILED'}\n")
            self.files.append(
                {"path": name, "crc32c": f"0x{crc:08x}", "bytes": size, "expected": f"0x{expected:08x}", "ok": ok}
            )
        if not (self.ok or self.failed or self.unreadable or self.malformed):
            self.malformed += 1
            self.error(list_path, "no properly formatted CRC32C lines found")

    def exit_code(self) -> Exit:
        if self.unreadable or self.malformed:
            return Exit.USAGE
        return Exit.FINDINGS if self.failed else Exit.OK

    def document(self) -> dict:
        check = None
        if self.check is not None:
            check = {
                "list": self.check,
                "ok": self.ok,
                "failed": self.failed,
                "unreadable": self.unreadable,
                "malformed": self.malformed,
            }
        return {
            "schema": SCHEMA,
            "implementation": portkit.crc32c_implementation(),
            "files": self.files,
            "errors": self.errors,
            "check": check,
        }


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
