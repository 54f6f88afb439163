"""`portkit audit kconfig [CONFIG]`: a kernel configuration against the rule
tables for real-time, 32-bit programs on 64-bit kernels, Y2038 and memory
(the problems of the PREEMPT_RT-on-Loongson, compat-vDSO and IVI AArch64
porting field reports).

CONFIG is a .config, config.gz or config.xz; without it, the running kernel's
(/proc/config.gz, else /boot/config-$(uname -r)); with --target, the target's
running kernel's, read by the agent. Every rule is a data row (option,
desired, severity, reason, source): `portkit audit kconfig --list-rules`,
docs/audit-kconfig-rules.md."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from portkit.commands.audit.kconfig.arch import detect_arch
from portkit.commands.audit.kconfig.engine import Check, evaluate, findings
from portkit.commands.audit.kconfig.render import SHOW, reason_fits, render_header
from portkit.commands.audit.kconfig.rules import ROWS, RULES
from portkit.commands.audit.kconfig.sources import Loaded, load
from portkit.core.output import columns, count, styled, terminal_width, warn
from portkit.findings.report import add_findings_command, finish
from portkit.findings.rules_list import list_rules, rule_fields
from portkit.findings.selection import active_rules

SCHEMA = "portkit.audit-kconfig/1"
PROBLEMS_SHOWN = 20  # problem lines on stderr; the rest are counted (all are in the JSON)
SUMMARY = "a kernel config against real-time, 32-bit compat, Y2038 and memory rules"
EXAMPLES = (
    "examples:\n"
    "  portkit audit kconfig                       the running kernel's config\n"
    "  portkit audit kconfig build/.config --fail-on error\n"
    "  portkit audit kconfig config.xz --select PKK2   only the compat32 rules\n"
    "  portkit audit kconfig --target qemu-aarch64     the target's, by the agent\n"
    "  portkit audit kconfig .config --format sarif -o kconfig.sarif\n"
    "  portkit audit kconfig --list-rules"
)


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_findings_command(
        modes, "kconfig", SUMMARY, __doc__, EXAMPLES, run, runs_on="agent", schema=SCHEMA, rules=RULES, rule_list=rules
    )
    parser.add_argument("config", nargs="?", type=Path, metavar="CONFIG", help="a .config, config.gz or config.xz")
    parser.add_argument(
        "--show",
        choices=SHOW,
        default="checked",
        help="text table rows: every rule checked (default), only failures, or all with the skipped",
    )


def rules(args: argparse.Namespace) -> int:
    """--list-rules with each rule's option, desired value and arches."""
    return list_rules(args, map(_rule_json, ROWS), _rules_table(_text_width(args)))


def run(args: argparse.Namespace) -> int:
    loaded = load(args)
    config = loaded.config
    arch = detect_arch(config)
    _warn(config.problems)
    active = {rule.id for rule in active_rules(RULES, args.select, args.ignore)}
    checks = evaluate(config, arch, [row for row in ROWS if row.id in active])
    extra = _document(loaded, arch, checks)
    return finish(
        args,
        schema=SCHEMA,
        rules=RULES,
        findings=findings(checks, config.path),
        extra=extra,
        text_header=lambda document: render_header(document, args.show, _text_width(args)),
        text_findings=False,
    )


def _text_width(args: argparse.Namespace) -> int | None:
    """The terminal's width the text goes to, None for -o FILE or a pipe."""
    return terminal_width() if args.output is None else None


def _warn(problems: list[str]) -> None:
    for line in problems[:PROBLEMS_SHOWN]:
        warn(line)
    if len(problems) > PROBLEMS_SHOWN:
        warn(f"{count(len(problems) - PROBLEMS_SHOWN, 'more problem line')} (all in --format json)")


def _document(loaded: Loaded, arch, checks: list[Check]) -> dict:
    config = loaded.config
    header = config.header
    words = Counter(c.result.split(":", 1)[0].split(" ", 1)[0] for c in checks if c.status == "fail")
    extra: dict = {
        "config": {
            "path": config.path,
            "source": loaded.source,
            "release": loaded.release,
            "compression": config.compression,
            "lines": config.lines,
            "settings": len(config.settings),
        },
        "kernel": {
            "version": header.version if header else None,
            "header_arch": header.arch if header else None,
            "arch": arch.name,
            "arch_symbol": arch.symbol,
            "arch_line": arch.line,
            "bits": arch.bits,
        },
        "problems": config.problems,
        "summary": {
            "checked": sum(1 for c in checks if c.status != "skip"),
            "ok": sum(1 for c in checks if c.status == "ok"),
            "fail": words["FAIL"],
            "warn": words["WARN"],
            "note": words["NOTE"],
            "skipped": sum(1 for c in checks if c.status == "skip"),
        },
        "checks": [c.to_json() for c in checks],
    }
    if loaded.target is not None:
        extra["target"] = loaded.target
    return extra


def _rule_json(row) -> dict:
    return {
        **rule_fields(row.rule),
        "option": row.option,
        "desired": row.desired.text,
        "arches": list(row.arches),
        "when": row.when.text if row.when else None,
        "old_names": [old.name for old in row.old_names],
        "source": row.source,
    }


def _rules_table(width: int | None) -> Callable[[dict], list]:
    """--list-rules as text: the option, its desired value and where it
    applies, then why; on a narrow terminal the why under each rule."""

    def render(document: dict) -> list:
        header = ["rule", "severity", "option", "desired", "arches", "why"]
        rows = [
            [
                r["id"],
                r["severity"],
                r["option"],
                r["desired"] if len(r["desired"]) <= 24 else "y (choice)",
                ", ".join(r["arches"]) or "all",
                r["summary"],
            ]
            for r in document["rules"]
        ]
        if reason_fits(header, rows, width):
            return [columns(header, rows, wrap=len(header) - 1)]
        narrow = []
        for rule, severity, option, desired, arches, why in rows:
            where = "" if arches == "all" else f" ({arches} only)"
            narrow += [[rule, severity, f"{option}: {desired}{where}"], ["", "", styled(why, "dim")]]
        return [columns(["rule", "severity", "option: desired"], narrow, wrap=2)]

    return render
