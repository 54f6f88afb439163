"""Rules, findings and a command for the findings layer's tests, built by hand
(no engine needed): `portkit sample` reports whatever findings a test gives it."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from portkit.core.command import Parser, add_command
from portkit.findings.model import Finding, Incomplete, Location, Rule, Severity
from portkit.findings.report import add_findings_options, finish

SCHEMA = "portkit.sample/1"
MODELS = ("ILP32 (arm)", "LP64 (aarch64)")


def rule(rule_id: str, name: str, severity: Severity, family: str) -> Rule:
    return Rule(
        id=rule_id,
        name=name,
        severity=severity,
        family=family,
        summary=f"What {name} finds.",
        why=f"Why {name} matters on LP64.",
        wrong="long n = (long)p;",
        right="intptr_t n = (intptr_t)p;",
        fix="Use `intptr_t`.",
    )


RULES = (
    rule("PK101", "pointer-to-narrower-int", Severity.WARNING, "Pointers and integers"),
    rule("PK102", "int-to-pointer", Severity.WARNING, "Pointers and integers"),
    rule("PK201", "long-in-wire-struct", Severity.ERROR, "Wire formats"),
    rule("PK301", "printf-long-format", Severity.NOTE, "Formats"),
)


def finding(
    rule_id: str = "PK101",
    path: str = "a.c",
    line: int = 1,
    column: int = 1,
    end_column: int | None = None,
    *,
    end_line: int | None = None,
    severity: Severity = Severity.WARNING,
    message: str = "cast of `void *` (8 bytes on LP64 (aarch64)) to `int` (4 bytes)",
) -> Finding:
    return Finding(
        rule=rule_id,
        severity=severity,
        location=Location(
            path, line, column, line if end_line is None else end_line, column + 1 if end_column is None else end_column
        ),
        message=message,
        fix="declare it `intptr_t`",
        models=MODELS,
    )


def sample_parser(
    findings: Sequence[Finding],
    rules: Sequence[Rule] = RULES,
    extra: dict | None = None,
    incomplete: Sequence[Incomplete] | None = None,
) -> Parser:
    """`portkit sample`, a command as scan would be: add_command with the three
    formats, the findings options; `incomplete`: the inputs it says it did not
    check completely (None: a command that does not tell)."""

    def run(args: argparse.Namespace) -> int:
        return finish(args, schema=SCHEMA, rules=rules, findings=findings, extra=extra or {}, incomplete=incomplete)

    parser = Parser(prog="portkit")
    commands = parser.add_subparsers(parser_class=Parser)
    examples = "examples:\n  portkit sample --format sarif"
    formats = ("text", "json", "sarif")
    command = add_command(commands, "sample", "findings", None, examples, run, runs_on="host", formats=formats)
    add_findings_options(command, rules, tracks_incomplete=incomplete is not None)
    return parser


def run_sample(
    findings: Sequence[Finding],
    *options: str,
    output: Path,
    rules: Sequence[Rule] = RULES,
    extra: dict | None = None,
    incomplete: Sequence[Incomplete] | None = None,
) -> tuple[int, str]:
    """Runs `portkit sample OPTIONS -o OUTPUT`: (exit code, what it wrote)."""
    args = sample_parser(findings, rules, extra, incomplete).parse_args(["sample", *options, "-o", str(output)])
    run: Callable[[argparse.Namespace], int] = args.run
    code = run(args)
    return code, output.read_text(encoding="utf-8")
