"""docs/audit-kconfig-rules.md, generated from the rule tables:
`python -m portkit.commands.audit.kconfig.rules_doc > docs/audit-kconfig-rules.md`
(tests/test_audit_kconfig.py fails when the file is stale)."""

from __future__ import annotations

from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.commands.audit.kconfig.rules import ROWS, RULES
from portkit.findings.report import rules_markdown

TITLE = "portkit audit kconfig rules"
INTRO = (
    "Each rule is one row of a table kept as data in `src/portkit/commands/audit/kconfig/rules/` "
    "(one module per family): the option, the value wanted, where it applies, the severity of a "
    "failure, why, and where that expectation is written down. `portkit audit kconfig` checks every "
    "row that applies to the config's architecture; `--list-rules` lists them and this page is "
    "generated from them (`python -m portkit.commands.audit.kconfig.rules_doc > "
    "docs/audit-kconfig-rules.md`). The real-time rows follow the kernel's own guide, "
    "Documentation/core-api/real-time/kernel-configuration.rst: its levels fatal, high, medium and "
    "info become error, warning, warning and note. An option that is absent is `is not found`: off "
    "for a rule that wants it off, a failure for one that wants a value; a rule with an older name "
    "(`PREEMPT_RT_FULL`) reads that name when the option itself is absent. Suppress a finding with "
    "`# portkit: ignore PKK114` on the option's line or the line above, or select families by "
    "prefix: `--select PKK1` (rt), `PKK2` (compat32), `PKK3` (y2038), `PKK4` (memory)."
)


def table(rows: tuple[KconfigRule, ...]) -> str:
    out = [
        "| rule | option | desired | applies to | when | severity | source |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        option = row.option if row.option == "kernel version" else f"`CONFIG_{row.option}`"
        if row.old_names:
            option += " (" + ", ".join(f"`{old.name}` in {old.where}" for old in row.old_names) + ")"
        when = row.when.text if row.when else ""
        cells = [row.id, option, f"`{row.desired.text}`", row.applies_to, when, row.severity.label, row.source]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out)


def page() -> str:
    return rules_markdown(RULES, TITLE, INTRO + "\n\n" + table(ROWS))


def main() -> None:
    print(page(), end="")


if __name__ == "__main__":
    main()
