"""`portkit audit rootfs DIR|ARCHIVE`: every ELF file of a root filesystem,
sysroot or tar archive of one, checked the way the board will meet it:
built for the image's ABI, every DT_NEEDED found by the image's own loader
(RPATH, RUNPATH, ld.so.conf, its system directories), no build-machine
paths, libraries in their ABI's libdir, 32-bit time_t calls (Y2038), the
interpreter, hardening, and what 32-bit programs need from a 64-bit kernel
(--kconfig checks it). Nothing from the image is run; its symlinks resolve
inside it. This machine's own / is audited as its loader meets it: the
programs in PATH's directories, the libraries its loaders search, and what
they load (cross sysroots, other images and build trees are left out, and
named). The rules: `portkit audit rootfs --list-rules`, or
docs/audit-rootfs-rules.md."""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from portkit.commands.audit.kconfig.reader import KernelConfig, read_config_file
from portkit.commands.audit.rootfs.abi import find_abi
from portkit.commands.audit.rootfs.audit import Audit, infer_target, looks_like_a_root, roots_below
from portkit.commands.audit.rootfs.document import audit_fields
from portkit.commands.audit.rootfs.image import Exclusions, Image
from portkit.commands.audit.rootfs.kernel import check_config_family
from portkit.commands.audit.rootfs.progress import Progress
from portkit.commands.audit.rootfs.reading import read_image
from portkit.commands.audit.rootfs.render import header
from portkit.commands.audit.rootfs.rules import CHECKS, RULES
from portkit.commands.audit.rootfs.wording import listed
from portkit.core.errors import BadInput
from portkit.core.output import terminal_width, warn
from portkit.core.progress import StatusLine
from portkit.findings.model import Finding
from portkit.findings.report import add_findings_command, finish
from portkit.findings.sarif import ArtifactRoot
from portkit.findings.selection import active_rules

SCHEMA = "portkit.audit-rootfs/1"
SUMMARY = "a root filesystem's ELF files as its loader and kernel will meet them"
EXAMPLES = (
    "examples:\n"
    "  portkit audit rootfs build/rootfs/      the target inferred from its programs\n"
    "  portkit audit rootfs rootfs.tar.xz --arch arm64     an archive, not unpacked\n"
    "  portkit audit rootfs rootfs/ --kconfig linux/.config   and the kernel it needs\n"
    "  portkit audit rootfs /          this machine, as its own loader meets it\n"
    "  portkit audit rootfs rootfs/ --exclude usr/lib/debug --exclude 'opt/*/build'\n"
    "  portkit audit rootfs rootfs/ --ignore PKR6 --fail-on error --format sarif \\\n"
    "      -o audit.sarif\n"
    "  portkit audit rootfs --list-rules"
)


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_findings_command(
        modes, "rootfs", SUMMARY, __doc__, EXAMPLES, run, runs_on="host", schema=SCHEMA, rules=RULES
    )
    parser.add_argument(
        "image",
        nargs="?",
        type=Path,
        metavar="DIR_OR_ARCHIVE",
        help="the image's root directory, or a tar archive of it (.tar, .tar.gz, .tar.bz2, .tar.xz)",
    )
    parser.add_argument(
        "--arch", metavar="ABI", help="the image's ABI (arm64, armhf, amd64, ... or a triple); default: inferred"
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="leave out the paths that match PATTERN, a glob on paths from the image root (usr/lib/debug, "
        "'*.a'); a directory goes with everything under it; repeatable; the summary names what was left out",
    )
    parser.add_argument(
        "--kconfig",
        type=Path,
        metavar="FILE",
        help="the kernel's .config (or config.gz): check what 32-bit programs need",
    )


def run(args: argparse.Namespace) -> int:
    if args.image is None:
        raise BadInput("audit rootfs: which image? (a directory or a tar archive; see --help)")
    if args.arch is not None:
        find_abi(args.arch)  # a wrong name fails before the image is read
    _check_output(args.output)
    kconfig = _read_kconfig(args.kconfig) if args.kconfig is not None else None
    with StatusLine(quiet=args.quiet) as status:
        progress = Progress(status)
        progress.show("reading", now=True)
        image = read_image(args.image, Exclusions(tuple(args.exclude)), progress.watcher())
        progress.show("resolving", image, now=True)
        target = infer_target(image, args.arch)
        if target is None:
            if image.truncated is not None:
                raise BadInput(f"{args.image}: {image.truncated}, and no ELF file of a known ABI is in what was read")
            raise BadInput(f"{args.image}: no ELF file of a known ABI in it, nothing to audit{_root_hint(image)}")
        if kconfig is not None:
            check_config_family(kconfig, target.abi.name, f"--kconfig {args.kconfig}")
        audit = Audit(image, target, kconfig, str(args.kconfig) if args.kconfig else None)
        audit.loading  # noqa: B018 - worked out here, under its own phase, for the rules to ask
        findings = run_checks(audit, args.select, args.ignore, progress)
    config_problems = kconfig.problems if kconfig is not None else []
    problems = list(dict.fromkeys([*image.problems, *config_problems, *audit.problems]))
    for line in problems:
        warn(line)
    if not image.live and not looks_like_a_root(image):
        warn(f"{image.label}: no bin/, sbin/, usr/bin/ or lib/ at its top, read as the board's /{_root_hint(image)}")

    def fields(shown: list[Finding]) -> dict:
        return audit_fields(audit, problems, shown, RULES)

    root = ArtifactRoot("IMAGEROOT", image.root_uri, f"the root of the image {image.label}")
    width = terminal_width() if args.output is None else None
    return finish(
        args,
        schema=SCHEMA,
        rules=RULES,
        findings=findings,
        extra=fields,
        text_header=lambda document: header(document, width, to_file=args.output is not None),
        root=root,
    )


def _root_hint(image: Image) -> str:
    """` (is it the image's root? build/rootfs looks like one)`; in an
    archive, `its rootfs/`."""
    if image.root_uri is None:
        below = [f"its {name}/" for name in roots_below(image)]
    else:
        below = [f"{image.label.rstrip('/')}/{name}" for name in roots_below(image)]
    return " (is it the image's root?" + (f" {listed(below, 2)} looks like one)" if below else ")")


def _check_output(path: Path | None) -> None:
    """-o's problems before minutes of reading rather than after them, in
    the words of core.output.write_atomically, which checks again: a
    temporary file made and removed where the report will be written."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(f"-o {path}: is a directory (give a file name)")
    if path.exists() and not path.is_file():
        return  # a device or a FIFO (-o /dev/null) is written as it is
    directory = path.parent
    if not directory.is_dir():
        why = "does not exist" if not directory.exists() else "is not a directory"
        raise BadInput(f"-o {path}: {directory} {why}")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as err:
        raise BadInput(f"-o {path}: cannot write there ({err.strerror})") from None
    os.close(fd)
    os.unlink(probe)


def _read_kconfig(path: Path) -> KernelConfig:
    """audit kconfig's reader, its one error line naming the option."""
    try:
        return read_config_file(path)
    except BadInput as err:
        raise BadInput(f"--kconfig {err}", err.hint) from None


def run_checks(
    audit: Audit, select: Sequence[str] | None, ignore: Sequence[str] | None, progress: Progress | None = None
) -> list[Finding]:
    """The findings of the rules --select/--ignore leave (the others do not run)."""
    active = {rule.id for rule in active_rules(RULES, select, ignore)}
    findings = []
    for rule, check in CHECKS:
        if rule.id in active:
            if progress is not None:
                progress.show(f"checking {rule.id}")
            findings += check(audit)
    return findings
