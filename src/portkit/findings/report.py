"""The one entry point of a command that reports findings:

    add_findings_command(subparsers, ..., schema=, rules=)   the command, with
        text/JSON/SARIF, --fail-on, --baseline, --select, --ignore and
        --list-rules; its run function is called with the options checked
    finish(args, schema=..., rules=..., findings=..., extra=...) -> exit code

finish() keeps the findings of the selected rules, drops those a comment
suppresses or the baseline knows, and writes the rest in file order as text,
JSON or SARIF (args.format) to args.output.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from portkit.core.command import Runs, add_command
from portkit.core.errors import BadInput, Exit
from portkit.core.output import deliver, emit, terminal_width
from portkit.findings.baseline import read_baseline
from portkit.findings.document import findings_document
from portkit.findings.model import Finding, Incomplete, Rule, Severity
from portkit.findings.rules_doc import rules_markdown
from portkit.findings.rules_list import list_rules, rule_fields
from portkit.findings.sarif import ArtifactRoot, sarif_document
from portkit.findings.selection import check_selectors, family_example, selectors
from portkit.findings.sources import SourceFiles
from portkit.findings.text import render_findings, summary
from portkit.findings.triage import Triage, triage

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = [
    "ArtifactRoot",
    "add_findings_command",
    "add_findings_options",
    "check_findings_options",
    "exit_code",
    "finish",
    "rules_markdown",
]

FAIL_ON = ("note", "warning", "error", "never")
FORMATS = ("text", "json", "sarif")


def add_findings_command(
    subparsers: argparse._SubParsersAction,
    name: str,
    summary: str,
    description: str | None,
    examples: str,
    run: Callable[[argparse.Namespace], int],
    *,
    runs_on: Runs,
    schema: str,
    rules: Sequence[Rule],
    rule_list: Callable[[argparse.Namespace], int] | None = None,
    tracks_incomplete: bool = False,
) -> argparse.ArgumentParser:
    """core.command.add_command for a command that reports findings: text,
    JSON or SARIF, the findings options after the command's own, and
    --list-rules answered before run is called (by rule_list when the command
    says more of each rule than rule_fields); run gets options already
    checked (check_findings_options), so a slow run does not end in a usage error.
    `tracks_incomplete`: add_findings_options' --allow-incomplete."""

    def run_checked(args: argparse.Namespace) -> int:
        if args.list_rules:
            return rule_list(args) if rule_list is not None else list_rules(args, map(rule_fields, rules))
        check_findings_options(args, schema=schema, rules=rules)
        return run(args)

    parser = add_command(
        subparsers, name, summary, description, examples, run_checked, runs_on=runs_on, formats=FORMATS
    )
    parser.add_last(lambda parser: add_findings_options(parser, rules, tracks_incomplete=tracks_incomplete))
    return parser


def add_findings_options(
    parser: argparse.ArgumentParser, rules: Sequence[Rule] = (), *, tracks_incomplete: bool = False
) -> None:
    """The options, their help naming the command's own rules (`rules`; none:
    no example). `tracks_incomplete`: the command tells inputs it could not
    check completely (finish(..., incomplete=...)), which end the run with
    exit 3 unless --allow-incomplete."""
    group = parser.add_argument_group("findings")
    group.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="warning",
        help="exit 1 when a finding shown is at least this severe (default: warning; never: always 0)",
    )
    group.add_argument(
        "--baseline",
        type=read_baseline,
        metavar="FILE",
        help="hide the findings listed in FILE, an earlier --format json document of this command",
    )
    group.add_argument(
        "--select",
        type=selectors,
        action="extend",
        metavar="ID[,ID...]",
        help=f"only these rules: ids, or prefixes naming a family{family_example(rules)}",
    )
    group.add_argument(
        "--ignore", type=selectors, action="extend", metavar="ID[,ID...]", help="not these rules (ids or prefixes)"
    )
    group.add_argument(
        "--list-rules", action="store_true", help="list the rules and stop (--format json: portkit.rules/1)"
    )
    if tracks_incomplete:
        group.add_argument(
            "--allow-incomplete",
            action="store_true",
            help="an input that could not be checked completely is reported, and the exit status is by "
            "--fail-on alone (default: exit 3, what was not checked may hold findings)",
        )


def check_findings_options(args: argparse.Namespace, *, schema: str, rules: Sequence[Rule]) -> None:
    """Refuses --select/--ignore naming no rule, and a baseline another
    command (or major version) wrote, in one line. finish() checks too; a
    command calls this first so a slow run does not end in a usage error."""
    check_selectors("--select", args.select, rules)
    check_selectors("--ignore", args.ignore, rules)
    if args.baseline is not None and args.baseline.schema != schema:
        raise BadInput(
            f"--baseline {args.baseline.path}: a {args.baseline.schema} document; this command writes {schema}"
        )


def finish(
    args: argparse.Namespace,
    *,
    schema: str,
    rules: Sequence[Rule],
    findings: Iterable[Finding],
    extra: Mapping[str, Any] | Callable[[list[Finding]], Mapping[str, Any]],
    text_header: Callable[[dict[str, Any]], Iterable[RenderableType]] | None = None,
    text_findings: bool = True,
    root: ArtifactRoot | None = None,
    incomplete: Sequence[Incomplete] | None = None,
    texts_read: Mapping[str, str] | None = None,
) -> int:
    """Shows the findings in args.format on args.output and returns the exit
    code per --fail-on. `extra`: the command's own fields of the JSON
    document, after "schema", or a function that makes them from the
    findings shown (for a summary of what is shown); `text_header(document)`:
    what text output shows before the findings (none by default);
    text_findings=False leaves text output the header and the summary line,
    for a command whose header already shows every finding (audit kconfig's
    table). `root`: the findings' paths are relative to it (an image), not to
    the working directory; no file is read for their text. `incomplete`: the
    inputs not checked completely, for a command that tracks them: listed in
    JSON and SARIF, counted in the summary line, and the exit status is 3
    (the run could not do its job) unless --allow-incomplete. `texts_read`:
    files the command read already (sources.SourceFiles)."""
    check_findings_options(args, schema=schema, rules=rules)
    cwd = Path.cwd()
    sources = SourceFiles(read=root is None, texts_read=texts_read)
    result = triage(
        findings,
        rules,
        select=args.select,
        ignore=args.ignore,
        baseline=args.baseline,
        sources=sources,
        cwd=cwd,
    )
    if args.format == "sarif":
        deliver(json.dumps(sarif_document(result, sources, cwd, root, incomplete), indent=2) + "\n", args.output)
    else:
        fields = extra([s.finding for s in result.shown]) if callable(extra) else extra
        document = findings_document(schema, fields, result, incomplete)
        width = terminal_width() if args.output is None else None  # where emit() fits text to a terminal

        def render(document: dict[str, Any]) -> list[RenderableType]:
            if text_findings:
                shown = render_findings(result, sources, width, incomplete)
            else:
                shown = [summary(result, incomplete)]
            return [*(text_header(document) if text_header else ()), *shown]

        emit(args.format, document, render, args.output)
    return exit_code(result, args.fail_on, incomplete, allow_incomplete=getattr(args, "allow_incomplete", False))


def exit_code(
    result: Triage, fail_on: str, incomplete: Sequence[Incomplete] | None = None, *, allow_incomplete: bool = False
) -> Exit:
    """ENVIRONMENT when an input was not checked completely (its findings may
    be missing: a gate must not pass on it) unless allow_incomplete; else
    FINDINGS when a shown finding is at least as severe as --fail-on (never:
    none is), else OK."""
    if incomplete and not allow_incomplete:
        return Exit.ENVIRONMENT
    if fail_on == "never":
        return Exit.OK
    threshold = Severity.from_label(fail_on)
    return Exit.FINDINGS if any(s.finding.severity >= threshold for s in result.shown) else Exit.OK
