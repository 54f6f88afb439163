"""The rootfs audit's rules, one file each (docs/audit-rootfs-rules.md is
generated from them). A rule file is named after its id
(`pkr101_foreign_architecture.py`) and holds its RULE and `check(audit)`,
which yields the rule's findings. The folder is the list."""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Iterable
from importlib import import_module

from portkit.commands.audit.rootfs.audit import Audit
from portkit.findings.model import Finding, Rule

_MODULES = [
    import_module(f"{__name__}.{module.name}")
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
    if module.name.startswith("pkr")
]
RULES: tuple[Rule, ...] = tuple(m.RULE for m in _MODULES)
CHECKS: tuple[tuple[Rule, Callable[[Audit], Iterable[Finding]]], ...] = tuple((m.RULE, m.check) for m in _MODULES)
