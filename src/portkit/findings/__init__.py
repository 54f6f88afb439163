"""Findings: the one model of what scan and audit report (rules, findings,
locations), --select/--ignore, suppression comments, --baseline, --fail-on,
and one renderer each for text, JSON and SARIF (docs/architecture.md,
"Findings"). Commands describe their rules and hand their findings to
report.finish()."""
