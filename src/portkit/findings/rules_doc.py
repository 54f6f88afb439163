"""A rule's documentation in ruff's fixed parts (What it does, Why is this
bad?, Example, Use instead, and portkit's Fix): the rules page a command
generates (docs/rules.md) and the help in SARIF read the same."""

from __future__ import annotations

import re
from collections.abc import Sequence

from portkit.findings.model import Rule


def rules_markdown(rules: Sequence[Rule], title: str, intro: str) -> str:
    """The rules page: an index per family, then one section per rule."""
    out = [f"# {title}", "", intro.strip(), ""]
    families: dict[str, list[Rule]] = {}
    for rule in rules:
        families.setdefault(rule.family, []).append(rule)
    for family, members in families.items():
        out += [f"## {family}", "", "| rule | name | severity | what it finds |", "|---|---|---|---|"]
        out += [
            f"| [{r.id}](#{_anchor(_heading(r))}) | `{r.name}` | {r.severity.label} | {_cell(r.summary)} |"
            for r in members
        ]
        out.append("")
    for rule in rules:
        out += [f"## {_heading(rule)}", "", f"Family: {rule.family}. Default severity: {rule.severity.label}.", ""]
        out.append(rule_help_markdown(rule, level=3))
    return "\n".join(out).rstrip("\n") + "\n"


def rule_help_markdown(rule: Rule, level: int) -> str:
    """The rule's fixed parts, headed at `level` (### for level 3)."""
    heading = "#" * level
    return (
        f"{heading} What it does\n\n{rule.summary}\n\n"
        f"{heading} Why is this bad?\n\n{rule.why}\n\n"
        f"{heading} Example\n\n{_code(rule.wrong, rule.language)}\n\n"
        f"{heading} Use instead\n\n{_code(rule.right, rule.language)}\n\n"
        f"{heading} Fix\n\n{rule.fix}\n"
    )


def rule_help_text(rule: Rule) -> str:
    """The same parts as plain text, for readers without Markdown."""
    return (
        f"{rule.summary}\n\nWhy is this bad? {rule.why}\n\n"
        f"Example:\n{_indent(rule.wrong)}\n\nUse instead:\n{_indent(rule.right)}\n\nFix: {rule.fix}\n"
    )


def _heading(rule: Rule) -> str:
    return f"{rule.id} {rule.name}"


def _anchor(heading: str) -> str:
    """The id GitHub and most Markdown renderers give a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(code: str, language: str) -> str:
    """A code block whose fence no backtick run in the code can close."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    body = code.strip("\n")
    return f"{fence}{language}\n{body}\n{fence}"


def _indent(code: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in code.strip("\n").split("\n"))
