"""A row of the rule tables: one option, what is wanted of it, how bad it is
when it is not, why, and where that expectation comes from (the
kernel-hardening-checker model). Rows are data (rules/); the engine
(engine.py) evaluates them. Each row is also a findings Rule, so --select,
--ignore, --baseline and SARIF treat it like any other."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.audit.kconfig.desired import Desired, When
from portkit.findings.model import Rule, Severity


@dataclass(frozen=True)
class OldName:
    """The name an option had in older kernels or in an out-of-tree patch set."""

    name: str
    where: str  # "the PREEMPT_RT patch set for Linux 3.0 to 5.2"


@dataclass(frozen=True)
class KconfigRule:
    id: str  # "PKK101": PKK, then the family's digit, then two
    name: str  # kebab-case: "preempt-rt"
    family: str  # the family's title: "Real-time (rt)"
    option: str  # without CONFIG_; "kernel version" for the header's release
    desired: Desired
    severity: Severity
    reason: str  # one line: the table's reason column and the rule's summary
    why: str  # the facts, a few sentences
    source: str  # where the expectation is written down: a kernel Documentation path or Kconfig help
    fix: str  # what to change, concretely
    arches: tuple[str, ...] = ()  # the architectures it applies to (arch.py's names); () is every one
    when: When | None = None  # applies only when this holds; otherwise skipped
    old_names: tuple[OldName, ...] = ()  # read when the option itself is absent
    context: tuple[str, ...] = ()  # other options whose values a failure quotes (what the option depends on)

    @property
    def rule(self) -> Rule:
        wrong, right = self.desired.examples(self.option)
        return Rule(
            id=self.id,
            name=self.name,
            severity=self.severity,
            family=self.family,
            summary=self.reason,
            why=f"{self.why}\n\nSource: {self.source}.",
            wrong=wrong,
            right=right,
            fix=self.fix,
            language="kconfig",
        )

    @property
    def applies_to(self) -> str:
        """For tables: `arm64`, `arm, arm64`, or `all`."""
        return ", ".join(self.arches) if self.arches else "all"
