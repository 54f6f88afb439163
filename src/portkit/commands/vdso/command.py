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

# A module per mode beside this file (list.py, verify.py, bench.py): its
# schema, renderer, options and what it costs. The mode is an optional
# positional (default list) rather than add_modes()'s subcommands, so that
# `portkit vdso --agent-arch i686` stays the natural first command.

from __future__ import annotations

import argparse

from portkit.commands.vdso import bench, verify
from portkit.commands.vdso import list as listing
from portkit.core.command import add_command, refuse_foreign_options
from portkit.core.output import emit
from portkit.core.target import START_SECONDS, AgentCall
from portkit.core.targets import run_agent

MODES = {mode.NAME: mode for mode in (listing, verify, bench)}
# Which mode takes each option (by argparse dest); the agent's limits are the same.
OWNERS = {dest: mode.NAME for mode in MODES.values() for dest in mode.OPTIONS}
# A generous cost of one clock call on a slow board or under emulation.
SECONDS_PER_CALL = 5e-6


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
    parser.add_argument("mode", nargs="?", choices=tuple(MODES), default=listing.NAME, help="default: list")
    for mode in MODES.values():
        mode.add_options(parser)


def check_options(args: argparse.Namespace) -> None:
    """What the agent would refuse, refused here before it starts."""
    prog = f"vdso {args.mode}"  # how errors name the mode (the cli says "portkit: error:")
    refuse_foreign_options(args, prog, args.mode, OWNERS)
    MODES[args.mode].check(args, prog)


def agent_call(args: argparse.Namespace) -> AgentCall:
    """The agent's command line for the options the user gave, and its time limit:
    start-up plus the calls the mode makes, each at a slow board's cost."""
    mode = MODES[args.mode]
    argv = ["vdso", mode.NAME]
    for dest in mode.OPTIONS:
        value = getattr(args, dest)
        if value is True:
            argv.append(f"--{dest}")
        elif value is not None:
            argv += [f"--{dest}", str(value)]
    timeout = START_SECONDS + mode.calls(args) * SECONDS_PER_CALL
    return AgentCall(tuple(argv), mode.SCHEMA, timeout, document_exits=mode.DOCUMENT_EXITS, **mode.files(args))


def run(args: argparse.Namespace) -> int:
    check_options(args)
    result = run_agent(args, agent_call(args))
    emit(args.format, result.document, MODES[args.mode].render, args.output)
    return result.exit_code
