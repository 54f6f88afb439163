"""docs/rules.md, generated from the scan rules: `python -m portkit.commands.scan.rules_doc > docs/rules.md`
(tests/test_scan_rules.py fails when the file is stale)."""

from __future__ import annotations

from portkit.commands.scan.rules import RULES
from portkit.findings.report import rules_markdown

TITLE = "portkit scan rules"
INTRO = (
    "Each rule finds one kind of 64-bit portability defect in C and C++ and fires only where the types "
    "involved change width between the two data models scanned (`--from ILP32 --to LP64` by default: "
    "AArch32 to AArch64; `--to LLP64` for Win64). This page is generated from the rule files in "
    "`src/portkit/commands/scan/rules/` (`python -m portkit.commands.scan.rules_doc > docs/rules.md`). "
    "Suppress a finding with `/* portkit: ignore PK101 */` on its line or the line above; "
    "`portkit scan --list-rules` lists them."
)


def main() -> None:
    print(rules_markdown(RULES, TITLE, INTRO), end="")


if __name__ == "__main__":
    main()
