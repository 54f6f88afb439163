"""Which findings are shown: those of the rules --select/--ignore leave,
less those a comment suppresses or the baseline knows, in file order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from portkit.findings.baseline import Baseline, fingerprints
from portkit.findings.model import Finding, Rule, Severity
from portkit.findings.selection import active_rules
from portkit.findings.sources import SourceFiles
from portkit.findings.suppression import is_suppressed


@dataclass(frozen=True)
class Shown:
    finding: Finding
    fingerprint: str


@dataclass(frozen=True)
class Triage:
    rules: list[Rule]  # the rules that ran (after --select/--ignore)
    shown: list[Shown]  # in file order: path, line, column, rule
    suppressed: int  # by a comment
    baselined: int  # known to the baseline

    def counts(self) -> dict[str, int]:
        """Shown findings per severity, worst first."""
        return {s.label: sum(1 for x in self.shown if x.finding.severity == s) for s in reversed(Severity)}


def triage(
    findings: Iterable[Finding],
    rules: Sequence[Rule],
    *,
    select: Sequence[str] | None,
    ignore: Sequence[str] | None,
    baseline: Baseline | None,
    sources: SourceFiles,
    cwd: Path,
) -> Triage:
    known = {r.id for r in rules}
    active = active_rules(rules, select, ignore)
    running = {r.id for r in active}
    kept = []
    for finding in findings:
        if finding.rule not in known:
            raise ValueError(f"a finding of {finding.rule}, which is not among the command's rules")
        if finding.rule in running:
            kept.append(finding)
    # The message last only so that two findings of one rule at one place keep one order.
    kept.sort(key=lambda f: (f.location.path, f.location.line, f.location.column, f.rule, f.message))
    # Over every finding of the rules that ran, suppressed or not: adding a
    # suppression must not shift the occurrence index (and so the fingerprint) of another.
    prints = fingerprints(kept, sources, cwd)
    shown, suppressed, baselined = [], 0, 0
    for finding, fingerprint in zip(kept, prints, strict=True):
        source = sources.get(finding.location.path)
        line = finding.location.line
        if source and is_suppressed(finding.rule, line, source.suppressions_near(line)):
            suppressed += 1
        elif baseline and fingerprint in baseline.fingerprints:
            baselined += 1
        else:
            shown.append(Shown(finding, fingerprint))
    return Triage(active, shown, suppressed, baselined)
