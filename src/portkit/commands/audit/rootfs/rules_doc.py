"""docs/audit-rootfs-rules.md, generated from the rules:
`python -m portkit.commands.audit.rootfs.rules_doc > docs/audit-rootfs-rules.md`
(tests/test_audit_rootfs.py fails when the file is stale)."""

from __future__ import annotations

from portkit.commands.audit.rootfs.rules import RULES
from portkit.findings.report import rules_markdown

TITLE = "portkit audit rootfs rules"
INTRO = (
    "Each rule checks the ELF files of a root filesystem, sysroot or tar archive of one the way the board "
    "will meet them: the image's own loader (its system directories read from its bytes, /etc/ld.so.conf and "
    "its includes, RPATH and RUNPATH with $ORIGIN), its kernel (`--kconfig`), its ABI (`--arch`, or inferred "
    "from its programs). Findings about a whole file have line 0; paths are relative to the image root. This "
    "page is generated from the rule files in `src/portkit/commands/audit/rootfs/rules/` "
    "(`python -m portkit.commands.audit.rootfs.rules_doc > docs/audit-rootfs-rules.md`); "
    "`portkit audit rootfs --list-rules` lists them. The examples show what `readelf` says about a file the "
    "rule flags, and about one it passes."
)


def main() -> None:
    print(rules_markdown(RULES, TITLE, INTRO), end="")


if __name__ == "__main__":
    main()
