"""`portkit audit MODE ...`: audits of what goes onto a board, one mode each
(a package beside this file with its own command.py). This file only lists
the modes; each registers its own parser, options and run function."""

from __future__ import annotations

import argparse

from portkit.commands.audit.kconfig import command as kconfig
from portkit.commands.audit.rootfs import command as rootfs
from portkit.core.command import add_modes

MODES = (rootfs, kconfig)
SUMMARY = "check what goes onto a board before the board does: a root filesystem (rootfs), a kernel config (kconfig)"
EXAMPLES = (
    "examples:\n"
    "  portkit audit rootfs build/rootfs/     every ELF file as the board's loader meets it\n"
    "  portkit audit rootfs image.tar --kconfig build/linux/.config\n"
    "  portkit audit kconfig                  the running kernel's config\n"
    "  portkit audit kconfig build/.config    a kernel build's config\n"
    "  portkit audit MODE --help              the mode's options"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    modes = add_modes(subparsers, "audit", SUMMARY, __doc__, EXAMPLES)
    for mode in MODES:
        mode.register(modes)
