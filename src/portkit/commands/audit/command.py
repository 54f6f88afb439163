"""`portkit audit MODE ...`: the audits of what goes onto a board."""

# One package per mode beside this file (rootfs/, kconfig/), each with its own
# command.py that registers the mode's parser, options and run function; this
# file only lists the modes.

from __future__ import annotations

import argparse

from portkit.commands.audit.kconfig import command as kconfig
from portkit.commands.audit.rootfs import command as rootfs
from portkit.core.command import add_modes

MODES = (rootfs, kconfig)
SUMMARY = "check what goes onto a board before the board does: a root filesystem (rootfs), a kernel config (kconfig)"
DESCRIPTION = (
    "Check what goes onto a board before it boots: the ELF files of a root\n"
    "filesystem (rootfs: a directory or a tar archive, as the board's loader and\n"
    "kernel will meet them) and a kernel configuration (kconfig: a file, the\n"
    "running kernel's, or a target's). Nothing from the image is run.\n"
    "\n"
    "Each mode reports findings as text, JSON or SARIF and exits 1 when one is at\n"
    "least as severe as --fail-on (default: warning)."
)
EXAMPLES = (
    "examples:\n"
    "  portkit audit rootfs build/rootfs/    every ELF file as the board meets it\n"
    "  portkit audit rootfs image.tar --kconfig build/linux/.config\n"
    "  portkit audit kconfig                 the running kernel's config\n"
    "  portkit audit kconfig build/.config   a kernel build's config\n"
    "  portkit audit MODE --help             the mode's options and examples"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    modes = add_modes(subparsers, "audit", SUMMARY, DESCRIPTION, EXAMPLES)
    for mode in MODES:
        mode.register(modes)
