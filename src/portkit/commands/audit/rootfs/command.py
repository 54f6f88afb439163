"""`portkit audit rootfs DIR|ARCHIVE`: every ELF file of a root filesystem,
sysroot or tar archive of one, checked the way the board will meet it:
built for the image's ABI, every DT_NEEDED found by the image's own loader
(RPATH, RUNPATH, ld.so.conf, its system directories), no build-machine
paths, libraries in their ABI's libdir, 32-bit time_t calls (Y2038), the
interpreter, hardening, and what 32-bit programs need from a 64-bit kernel
(--kconfig checks it). Nothing from the image is run; its symlinks resolve
inside it. Rules: `portkit audit rootfs --list-rules`, docs/audit-rootfs-rules.md."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from portkit.commands.audit.kconfig.reader import KernelConfig, read_config_file
from portkit.commands.audit.rootfs.abi import find_abi
from portkit.commands.audit.rootfs.audit import Audit, infer_target
from portkit.commands.audit.rootfs.document import audit_fields
from portkit.commands.audit.rootfs.image import read_image
from portkit.commands.audit.rootfs.kernel import check_config_family
from portkit.commands.audit.rootfs.render import header
from portkit.commands.audit.rootfs.rules import CHECKS, RULES
from portkit.core.command import add_command
from portkit.core.errors import BadInput
from portkit.findings.model import Finding
from portkit.findings.report import add_findings_options, check_findings_options, finish
from portkit.findings.rules_list import list_rules, rule_fields
from portkit.findings.sarif import ArtifactRoot
from portkit.findings.selection import active_rules

SCHEMA = "portkit.audit-rootfs/1"
SUMMARY = "a root filesystem's ELF files as its loader and kernel will meet them"
EXAMPLES = (
    "examples:\n"
    "  portkit audit rootfs build/rootfs/                     the target is inferred from its programs\n"
    "  portkit audit rootfs rootfs.tar.xz --arch arm64        an archive, read without unpacking it to disk\n"
    "  portkit audit rootfs rootfs/ --kconfig linux/.config   and the kernel its 32-bit programs need\n"
    "  portkit audit rootfs rootfs/ --ignore PKR6 --fail-on error --format sarif -o audit.sarif\n"
    "  portkit audit rootfs --list-rules"
)


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes, "rootfs", SUMMARY, __doc__, EXAMPLES, run, runs_on="host", formats=("text", "json", "sarif")
    )
    parser.add_argument("image", nargs="?", type=Path, metavar="DIR_OR_ARCHIVE")
    parser.add_argument(
        "--arch", metavar="ABI", help="the image's ABI (arm64, armhf, amd64, ... or a triple); default: inferred"
    )
    parser.add_argument(
        "--kconfig",
        type=Path,
        metavar="FILE",
        help="the kernel's .config (or config.gz): check what 32-bit programs need",
    )
    add_findings_options(parser)


def run(args: argparse.Namespace) -> int:
    if args.list_rules:
        return list_rules(args, map(rule_fields, RULES))
    if args.image is None:
        raise BadInput("portkit audit rootfs: which image? (a directory or a tar archive; see --help)")
    check_findings_options(args, schema=SCHEMA, rules=RULES)
    if args.arch is not None:
        find_abi(args.arch)  # a wrong name fails before the image is read
    kconfig = _read_kconfig(args.kconfig) if args.kconfig is not None else None
    image = read_image(args.image)
    target = infer_target(image, args.arch)
    if target is None:
        raise BadInput(f"{args.image}: no ELF file of a known ABI in it, nothing to audit (is it the image's root?)")
    options = kconfig.values() if kconfig is not None else None
    if options is not None:
        check_config_family(options, target.abi.name, f"--kconfig {args.kconfig}")
    audit = Audit(image, target, options, str(args.kconfig) if args.kconfig else None)
    findings = run_checks(audit, args.select, args.ignore)
    config_problems = kconfig.problems if kconfig is not None else []
    problems = list(dict.fromkeys([*image.problems, *config_problems, *audit.problems]))
    for line in problems:
        print(f"portkit: warning: {line}", file=sys.stderr)

    def fields(shown: list[Finding]) -> dict:
        return audit_fields(audit, problems, shown, RULES)

    root = ArtifactRoot("IMAGEROOT", image.root_uri, f"the root of the image {image.label}")
    return finish(args, schema=SCHEMA, rules=RULES, findings=findings, extra=fields, text_header=header, root=root)


def _read_kconfig(path: Path) -> KernelConfig:
    """audit kconfig's reader, its one error line naming the option."""
    try:
        return read_config_file(path)
    except BadInput as err:
        raise BadInput(f"--kconfig {err}", err.hint) from None


def run_checks(audit: Audit, select: Sequence[str] | None, ignore: Sequence[str] | None) -> list[Finding]:
    """The findings of the rules --select/--ignore leave (the others do not run)."""
    active = {rule.id for rule in active_rules(RULES, select, ignore)}
    return [finding for rule, check in CHECKS if rule.id in active for finding in check(audit)]
