"""`portkit vdso [list|verify|bench]`: is there a vDSO, does it agree with the
kernel, and what does it save? (the compat-vDSO field report: 32-bit apps
on an arm64 kernel built without CROSS_COMPILE_COMPAT silently lose it and
every gettimeofday becomes a system call.)

  list    the vDSO's symbols and versions; without one, what each gettimeofday
          costs and why the vDSO may be missing (--require: exit 1 then)
  verify  every vDSO reading lies between two system calls of the same clock,
          and clock_getres agrees both ways: the vDSO's copy of the kernel's
          time is consistent (exit 1 when it is not). Whether the clock itself
          is right, no reading can tell; without a vDSO there is nothing to
          verify (exit 3)
  bench   ns per call through libc, the vDSO and the raw system call"""

from __future__ import annotations

import argparse
from pathlib import Path

from portkit.commands.vdso.render import FIELD_REPORT_CALLS, render_bench, render_list, render_verify
from portkit.core.command import add_command, refuse_foreign_options, whole
from portkit.core.errors import BadInput, Exit
from portkit.core.output import emit
from portkit.core.target import START_SECONDS, AgentCall, run_agent

SCHEMAS = {"list": "portkit.vdso/2", "verify": "portkit.vdso-verify/2", "bench": "portkit.vdso-bench/2"}
RENDERERS = {"list": render_list, "verify": render_verify, "bench": render_bench}
# Which mode takes each option (by argparse dest); the agent's limits are the same.
OWNERS = {
    "image": "list",
    "dump": "list",
    "require": "list",
    "iterations": "verify",
    "clock": "verify",
    "calls": "bench",
    "repeat": "bench",
}
DEFAULT_ITERATIONS = 10_000
DEFAULT_CALLS = FIELD_REPORT_CALLS
DEFAULT_REPEAT = 5
MAX_TOTAL_CALLS = 1_000_000_000  # per path, as the agent allows
# A generous cost of one call on a slow board or under emulation, and how many
# calls verify (checks x 3 readings) and bench (2 functions x 3 paths) make per unit.
SECONDS_PER_CALL = 5e-6
VERIFY_CALLS_PER_ITERATION = 60 * 3
BENCH_CALLS_PER_CALL = 2 * 3


SUMMARY = "list, verify and benchmark the kernel's vDSO"
EXAMPLES = (
    "examples:\n"
    "  portkit vdso                          what this process's vDSO exports\n"
    "  portkit vdso verify                   vDSO and system calls agree for every clock\n"
    "  portkit vdso bench --calls 500000     the compat-vDSO field report's loop\n"
    "  portkit vdso --agent-arch i686        a 32-bit process here (compat vDSO)\n"
    "  portkit vdso --target vm:linux-image-arm64 --agent-arch armhf   the compat vDSO of Debian's arm64 kernel\n"
    "  portkit vdso --image arch/arm64/kernel/vdso32/vdso.so      a kernel build's compat vDSO"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(subparsers, "vdso", SUMMARY, __doc__, EXAMPLES, run, runs_on="agent")
    parser.add_argument("mode", nargs="?", choices=tuple(SCHEMAS), default="list", help="default: list")
    group = parser.add_argument_group("list")
    group.add_argument("--image", type=Path, metavar="FILE", help="parse a vdso.so file instead of the live vDSO")
    group.add_argument("--dump", type=Path, metavar="FILE", help="save the live vDSO image to FILE")
    group.add_argument("--require", action="store_true", default=None, help="exit 1 when there is no vDSO")
    group = parser.add_argument_group("verify")
    group.add_argument(
        "--iterations",
        type=whole(1, 100_000_000),
        metavar="N",
        help=f"interleaved samples per check (default {DEFAULT_ITERATIONS})",
    )
    group.add_argument("--clock", metavar="NAME", help="check only this clock (e.g. MONOTONIC)")
    group = parser.add_argument_group("bench")
    group.add_argument(
        "--calls", type=whole(1, 100_000_000), metavar="N", help=f"calls per measurement (default {DEFAULT_CALLS})"
    )
    group.add_argument(
        "--repeat",
        type=whole(1, 1000),
        metavar="R",
        help=f"measurements per method; the median is shown (default {DEFAULT_REPEAT})",
    )


def check_options(args: argparse.Namespace) -> None:
    """What the agent would refuse, refused here before it starts."""
    prog = f"vdso {args.mode}"  # how errors name the mode (the cli says "portkit: error:")
    refuse_foreign_options(args, prog, args.mode, OWNERS)
    if args.image is not None and args.dump is not None:
        raise BadInput(f"{prog}: --image and --dump cannot be combined (--dump writes the live vDSO)")
    calls, repeat = args.calls or DEFAULT_CALLS, args.repeat or DEFAULT_REPEAT
    if calls * repeat > MAX_TOTAL_CALLS:
        raise BadInput(f"{prog}: --calls {calls} x --repeat {repeat} is more than {MAX_TOTAL_CALLS} calls per path")


def agent_call(args: argparse.Namespace) -> AgentCall:
    """The agent's command line for the options the user gave, and its time limit."""
    argv = ["vdso", args.mode]
    for dest in OWNERS:
        value = getattr(args, dest)
        if value is True:
            argv.append(f"--{dest}")
        elif value is not None:
            argv += [f"--{dest}", str(value)]
    # verify without a vDSO has nothing to verify: exit 3 with its document, which says why.
    exits = frozenset({Exit.ENVIRONMENT}) if args.mode == "verify" else frozenset()
    # --image is read and --dump written on the target: a VM is given the one and sends the other back.
    files = {"inputs": (str(args.image),) if args.image else (), "outputs": (str(args.dump),) if args.dump else ()}
    return AgentCall(tuple(argv), SCHEMAS[args.mode], timeout(args), document_exits=exits, **files)


def timeout(args: argparse.Namespace) -> float:
    """Start-up plus the calls this mode makes, each at a slow board's cost."""
    if args.mode == "verify":
        calls = (args.iterations or DEFAULT_ITERATIONS) * VERIFY_CALLS_PER_ITERATION
    elif args.mode == "bench":
        calls = (args.calls or DEFAULT_CALLS) * (args.repeat or DEFAULT_REPEAT) * BENCH_CALLS_PER_CALL
    else:
        calls = 0
    return START_SECONDS + calls * SECONDS_PER_CALL


def run(args: argparse.Namespace) -> int:
    check_options(args)
    result = run_agent(args, agent_call(args))
    emit(args.format, result.document, RENDERERS[args.mode], args.output)
    return result.exit_code
