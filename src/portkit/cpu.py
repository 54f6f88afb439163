"""`portkit cpu`: the optional instruction-set features a target's CPU and
kernel offer, by their /proc/cpuinfo names (seed: freebsd-armv8-crc32c,
"there is currently no simple way to check in userland")."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from rich.console import RenderableType

from portkit.commands import add_command
from portkit.errors import BadInput, Exit
from portkit.output import emit, fields, words
from portkit.target import target_from_args

SCHEMA = "portkit.cpu/1"


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    parser = add_command(
        subparsers,
        common,
        "cpu",
        "optional instruction-set features of a target's CPU and kernel",
        __doc__,
        "examples:\n  portkit cpu\n  portkit cpu --target qemu-aarch64:cortex-a53 --has crc32,pmull",
        run,
    )
    parser.add_argument(
        "--has",
        metavar="NAME[,NAME...]",
        help="exit 1 unless every named feature is present (names as in /proc/cpuinfo)",
    )


def run(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    document = target.run(["cpu"], SCHEMA).document
    document["target"] = args.target
    wanted = [name for name in (args.has or "").split(",") if name]
    missing = missing_features(document, wanted)
    emit(args.format, document, render(document, wanted, missing), args.output)
    return Exit.FINDINGS if missing else Exit.OK


def missing_features(document: dict, wanted: Iterable[str]) -> list[str]:
    """The wanted features the target lacks; a name unknown there is bad input."""
    present, absent = set(document["features"]), set(document["absent"])
    unknown = [name for name in wanted if name not in present | absent]
    if unknown:
        raise BadInput(f"--has: {', '.join(unknown)}: not a feature name on {document['arch']} (see `portkit cpu`)")
    return [name for name in wanted if name in absent]


def render(document: dict, wanted: list[str], missing: list[str]) -> list[RenderableType]:
    agent = document["agent"]
    model = " ".join(
        part for part in (document.get("model"), document.get("vendor") and f"({document['vendor']})") if part
    )
    rows: list[tuple[str, RenderableType]] = [
        ("cpu", f"{document['arch']} ({agent['data_model']}) {model}".rstrip()),
        ("target", document["target"]),
        ("source", _source(document)),
        (f"features ({len(document['features'])})", words(document["features"])),
        (f"absent ({len(document['absent'])})", words(document["absent"])),
    ]
    if wanted:
        verdict = f"[red]missing: {' '.join(missing)}[/]" if missing else "[green]all present[/]"
        rows.append((f"--has {','.join(wanted)}", verdict))
    return [fields(rows)]


def _source(document: dict) -> str:
    if document["source"] == "cpuid":
        return "cpuid + xgetbv (features the OS does not enable count as absent)"
    raw = f"AT_HWCAP {document['hwcap']}, AT_HWCAP2 {document.get('hwcap2') or '-'}"
    platform = f", AT_PLATFORM {document['platform']}" if document.get("platform") else ""
    return f"getauxval: {raw}{platform}"
