"""`portkit cpu`: the optional instruction-set features a target's CPU and
kernel offer, by their /proc/cpuinfo names (the FreeBSD ARMv8 CRC32C review:
"there is currently no simple way to check in userland")."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from portkit.core.command import add_command
from portkit.core.output import emit, fields, styled, words
from portkit.core.target import AgentCall
from portkit.core.targets import run_agent

if TYPE_CHECKING:
    from rich.console import RenderableType

SCHEMA = "portkit.cpu/1"


SUMMARY = "optional instruction-set features of a target's CPU and kernel"
EXAMPLES = "examples:\n  portkit cpu\n  portkit cpu --target qemu-aarch64:cortex-a53 --has crc32,pmull"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "cpu", SUMMARY, __doc__, EXAMPLES, run, runs_on="agent")
    parser.add_argument(
        "--has",
        metavar="NAME[,NAME...]",
        help="exit 1 unless every named feature is present (names as in /proc/cpuinfo)",
    )


def run(args: argparse.Namespace) -> int:
    # The agent decides --has (it knows the names of its architecture, unnamed
    # hwcap bits included) and reports "wanted" and "missing".
    result = run_agent(args, AgentCall(("cpu", *(("--has", args.has) if args.has is not None else ())), SCHEMA))
    emit(args.format, result.document, render, args.output)
    return result.exit_code


def render(document: dict) -> list[RenderableType]:
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
    wanted, missing = document.get("wanted"), document.get("missing") or []
    if wanted:
        verdict = styled(f"missing: {' '.join(missing)}", "red") if missing else styled("all present", "green")
        rows.append((f"--has {','.join(wanted)}", verdict))
    return [fields(rows)]


def _source(document: dict) -> str:
    if document["source"] == "cpuid":
        return "cpuid + xgetbv (features the OS does not enable count as absent)"
    raw = f"AT_HWCAP {document['hwcap']}, AT_HWCAP2 {document.get('hwcap2') or '-'}"
    platform = f", AT_PLATFORM {document['platform']}" if document.get("platform") else ""
    return f"getauxval: {raw}{platform}"
