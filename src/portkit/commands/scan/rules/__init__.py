"""The scan rules, one file each (docs/rules.md is generated from them).

A rule file is named after its id (`pk101_pointer_to_int.py`) and holds its
Rule (id, severity, what, why, a wrong and a right example, the fix) and the
Check the engine calls. The folder is the list: adding a rule is adding a file."""

from __future__ import annotations

import pkgutil
from importlib import import_module

from portkit.commands.scan.check import Check

CHECKS: tuple[Check, ...] = tuple(
    import_module(f"{__name__}.{module.name}").CHECK
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
    if module.name.startswith("pk")
)
RULES = tuple(check.rule for check in CHECKS)
