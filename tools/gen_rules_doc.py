"""The rules pages of the commands that report findings, generated from their
rules (a developer's tool, not part of the installed package):

    python tools/gen_rules_doc.py            writes every page in docs/
    python tools/gen_rules_doc.py --check    exit 1 when a page is stale (the tests run it)

PAGES holds one page per findings command: every command whose parser has
--list-rules must have one (tests/test_rules_docs.py checks it against the
command line)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.commands.audit.kconfig.rules import ROWS
from portkit.commands.audit.kconfig.rules import RULES as KCONFIG_RULES
from portkit.commands.audit.rootfs.rules import RULES as ROOTFS_RULES
from portkit.commands.scan.rules import RULES as SCAN_RULES
from portkit.findings.model import Rule
from portkit.findings.rules_doc import rules_markdown

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "python tools/gen_rules_doc.py"


@dataclass(frozen=True)
class Page:
    command: str  # the findings command, as typed after `portkit`
    path: str  # below the repository
    rules: Sequence[Rule]
    title: str
    intro: str
    table: Callable[[], str] | None = None  # more about every rule, after the intro

    def text(self) -> str:
        intro = self.intro + ("\n\n" + self.table() if self.table else "")
        return rules_markdown(self.rules, self.title, intro)


def kconfig_table() -> str:
    """audit kconfig's rows: the option, the value wanted and where it applies."""
    out = [
        "| rule | option | desired | applies to | when | severity | source |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in ROWS:
        option = row.option if row.option == "kernel version" else f"`CONFIG_{row.option}`"
        if row.old_names:
            option += " (" + ", ".join(f"`{old.name}` in {old.where}" for old in row.old_names) + ")"
        when = row.when.text if row.when else ""
        cells = [row.id, option, f"`{row.desired.text}`", row.applies_to, when, row.severity.label, row.source]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out)


PAGES = (
    Page(
        "scan",
        "docs/rules.md",
        SCAN_RULES,
        "portkit scan rules",
        "Each rule finds one kind of 64-bit portability defect in C and C++ and fires only where the types "
        "involved change width between the two data models scanned (`--from ILP32 --to LP64` by default: "
        "AArch32 to AArch64; `--to LLP64` for Win64). This page is generated from the rule files in "
        f"`src/portkit/commands/scan/rules/` (`{COMMAND}`). "
        "Suppress a finding with `/* portkit: ignore PK101 */` on its line or the line above; "
        "`portkit scan --list-rules` lists them.",
    ),
    Page(
        "audit kconfig",
        "docs/audit-kconfig-rules.md",
        KCONFIG_RULES,
        "portkit audit kconfig rules",
        "Each rule is one row of a table kept as data in `src/portkit/commands/audit/kconfig/rules/` "
        "(one module per family): the option, the value wanted, where it applies, the severity of a "
        "failure, why, and where that expectation is written down. `portkit audit kconfig` checks every "
        "row that applies to the config's architecture; `--list-rules` lists them and this page is "
        f"generated from them (`{COMMAND}`). The real-time rows follow the kernel's own guide, "
        "Documentation/core-api/real-time/kernel-configuration.rst: its levels fatal, high, medium and "
        "info become error, warning, warning and note. An option that is absent is `is not found`: off "
        "for a rule that wants it off, a failure for one that wants a value; a rule with an older name "
        "(`PREEMPT_RT_FULL`) reads that name when the option itself is absent. Suppress a finding with "
        "`# portkit: ignore PKK114` on the option's line or the line above, or select families by "
        "prefix: `--select PKK1` (rt), `PKK2` (compat32), `PKK3` (y2038), `PKK4` (memory).",
        kconfig_table,
    ),
    Page(
        "audit rootfs",
        "docs/audit-rootfs-rules.md",
        ROOTFS_RULES,
        "portkit audit rootfs rules",
        "Each rule checks the ELF files of a root filesystem, sysroot or tar archive of one the way the board "
        "will meet them: the image's own loader (its system directories read from its bytes, /etc/ld.so.conf and "
        "its includes, RPATH and RUNPATH with $ORIGIN), its kernel (`--kconfig`), its ABI (`--arch`, or inferred "
        "from its programs). Findings about a whole file have line 0; paths are relative to the image root. This "
        "page is generated from the rule files in `src/portkit/commands/audit/rootfs/rules/` "
        f"(`{COMMAND}`); "
        "`portkit audit rootfs --list-rules` lists them. The examples show what `readelf` says about a file the "
        "rule flags, and about one it passes.",
    ),
)


def stale(root: Path = ROOT) -> list[str]:
    """The pages whose file is not what the rules make."""
    return [page.path for page in PAGES if _read(root / page.path) != page.text()]


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except FileNotFoundError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], prog="gen_rules_doc.py")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is stale")
    args = parser.parse_args(argv)
    if args.check:
        for path in stale():
            print(f"gen_rules_doc.py: {path} is stale: run {COMMAND}", file=sys.stderr)
        return 1 if stale() else 0
    for page in PAGES:
        (ROOT / page.path).write_text(page.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
