"""Evaluating the rule rows against one config: every row gives one line of
the table (OK, a failure, or skipped and why), and each failure one Finding
at the config line it read (line 0 when the option is absent)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from portkit.commands.audit.kconfig.arch import ConfigArch
from portkit.commands.audit.kconfig.desired import NOT_FOUND, NOT_SET, Chosen, KernelVersion, Observed, shown
from portkit.commands.audit.kconfig.model import KconfigRule
from portkit.commands.audit.kconfig.reader import KernelConfig
from portkit.findings.model import Finding, Location, Severity

# The result column's word for a failed row, by the severity of its finding.
FAILED = {Severity.ERROR: "FAIL", Severity.WARNING: "WARN", Severity.NOTE: "NOTE"}


@dataclass(frozen=True)
class Check:
    row: KconfigRule
    status: str  # "ok", "fail" or "skip"
    actual: str  # what the config has: "y", "is not set", "is not found", "NO_HZ_FULL", "" when skipped
    result: str  # the table's column: "OK", "FAIL: is not found", "SKIP: arm64 only"
    line: int  # the config line read, 0 when none
    read_as: str | None  # an old name the option was found under
    context: tuple[tuple[str, str], ...]  # (option, value) of the options a failure quotes

    def to_json(self) -> dict:
        return {
            "rule": self.row.id,
            "option": self.row.option,
            "family": self.row.family,
            "desired": self.row.desired.text,
            "actual": self.actual,
            "status": self.status,
            "result": self.result,
            "severity": self.row.severity.label,
            "line": self.line,
            "read_as": self.read_as,
            "context": dict(self.context),
            "reason": self.row.reason,
            "source": self.row.source,
        }


def evaluate(
    config: KernelConfig, arch: ConfigArch, rows: Iterable[KconfigRule], runs: frozenset[str] = frozenset()
) -> list[Check]:
    """Every row's check; `runs`: the ABIs of the programs the kernel is to
    run, for the rows that apply only then (audit rootfs's kernel rows)."""
    return [_check(config, arch, row, runs) for row in rows]


def _check(config: KernelConfig, arch: ConfigArch, row: KconfigRule, runs: frozenset[str]) -> Check:
    skipped = _skip_reason(config, arch, row, runs)
    if skipped is not None:
        return Check(row, "skip", "", f"SKIP: {skipped}", 0, None, ())
    observed, read_as = _observe(config, row)
    line = observed.setting.line if observed.setting is not None else 0
    context = tuple((name, shown(config.get(name))) for name in row.context)
    if observed.ok:
        result = "OK" if observed.setting is not None or read_as else f"OK: {NOT_FOUND}"
        if read_as:
            result += f" (as {read_as})"
        return Check(row, "ok", observed.actual, result, line, read_as, context)
    return Check(row, "fail", observed.actual, f"{FAILED[row.severity]}: {observed.actual}", line, read_as, context)


def _skip_reason(config: KernelConfig, arch: ConfigArch, row: KconfigRule, runs: frozenset[str]) -> str | None:
    if row.arches and arch.name is None:
        return f"{row.applies_to} only, and the architecture is unknown"
    if row.arches and arch.name not in row.arches:
        return f"{row.applies_to} only"
    if row.when is not None and not row.when.holds(config, runs):
        return f"applies when {row.when.text}"
    if isinstance(row.desired, KernelVersion) and (config.header is None or config.header.version_tuple is None):
        return "the config's header names no kernel version"
    return None


def _observe(config: KernelConfig, row: KconfigRule) -> tuple[Observed, str | None]:
    """The option as the config has it, else under an older name the config uses."""
    observed = row.desired.observe(config, row.option)
    if observed.setting is None and not isinstance(row.desired, (Chosen, KernelVersion)):
        for old in row.old_names:
            if config.get(old.name) is not None:
                return row.desired.observe(config, old.name), old.name
    return observed, None


def findings(checks: Sequence[Check], path: str) -> list[Finding]:
    return [_finding(check, path) for check in checks if check.status == "fail"]


def _finding(check: Check, path: str) -> Finding:
    row = check.row
    message = f"{_described(check)}, desired {row.desired.text}: {row.reason}"
    if check.context:
        message += " (" + ", ".join(f"{name} {_value(value)}" for name, value in check.context) + ")"
    return Finding(
        rule=row.id,
        severity=row.severity,
        location=Location(path, check.line, 0, check.line, 0),
        message=message,
        fix=row.fix,
    )


def _described(check: Check) -> str:
    row = check.row
    if isinstance(row.desired, KernelVersion):
        return f"kernel version {check.actual}"
    if isinstance(row.desired, Chosen):
        return f"CONFIG_{row.option} is not the choice: {check.actual}"
    name = check.read_as or row.option
    return f"CONFIG_{name} {_value(check.actual)}"


def _value(actual: str) -> str:
    return actual if actual in (NOT_FOUND, NOT_SET) else f"={actual}"
