"""The rule tables of `portkit audit kconfig`, one module per family, as data
rows (model.KconfigRule); docs/audit-kconfig-rules.md is generated from them.
Ids: PKK, the family's digit (1 rt, 2 compat32, 3 y2038, 4 memory), two digits."""

from __future__ import annotations

from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.commands.audit.kconfig.rules import compat32, memory, rt, y2038
from portkit.findings.model import Rule

FAMILIES = (rt, compat32, y2038, memory)
ROWS: tuple[KconfigRule, ...] = tuple(row for family in FAMILIES for row in family.ROWS)
RULES: tuple[Rule, ...] = tuple(row.rule for row in ROWS)
