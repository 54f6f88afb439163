"""The text report: what was read, then a table shaped like
kernel-hardening-checker's (option, desired, actual, result, reason), one row
per rule checked; --show failures keeps only the rows that failed, --show all
adds the rules skipped for another architecture or an unmet condition.
It is drawn from the JSON document, so text and JSON never disagree.

That table is some 110 columns before its reason: on a terminal too narrow
for it (an 80-column one) each rule is a row of rule, result and setting
with its reason folded on the lines below, so every word stays readable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from portkit.commands.audit.kconfig.engine import FAILED
from portkit.core.fit import GAP, MIN_WRAPPED
from portkit.core.output import columns, count, fields, styled
from portkit.findings.model import Severity

if TYPE_CHECKING:
    from rich.console import RenderableType

    from portkit.core.fit import Cell

RESULT_STYLES = {"FAIL": "bold red", "WARN": "bold magenta", "NOTE": "bold cyan", "OK": "green", "skipped": "dim"}
WIDE = ["rule", "option", "desired", "actual", "result", "reason"]
NARROW = ["rule", "result", "option"]


def render_header(document: dict[str, Any], show: str, width: int | None = None) -> list[RenderableType]:
    """The report before the findings' summary line; `width` the terminal's
    (None: a file or a pipe, whole lines)."""
    config, kernel, summary = document["config"], document["kernel"], document["summary"]
    arch = kernel["arch"] or "unknown"
    if kernel["arch_symbol"]:
        arch += f" (CONFIG_{kernel['arch_symbol']}, line {kernel['arch_line']})"
    read = config["path"] + (f" ({config['compression']})" if config["compression"] else "")
    if config["source"] == "running":
        read += f", the running kernel {config['release']}"
    elif config["source"] == "target":
        read += f", the kernel {config['release']} on {document['target']}"
    settings = f"{count(config['settings'], 'setting')} in {count(config['lines'], 'line')}"
    out: list[RenderableType] = [
        fields(
            [
                ("config", read),
                ("kernel", f"{kernel['version'] or 'version unknown'}, {arch}"),
                ("read", f"{settings}, {count(len(document['problems']), 'problem')}"),
                ("checked", _checked(summary)),
            ]
        ),
        "",
    ]
    shown_ids = {f["rule"] for f in document["findings"]}
    checks = [check for check in document["checks"] if _wanted(check, show)]
    if checks:
        out.append(_table(checks, shown_ids, width))
    else:
        out.append("no rule failed" if show == "failures" else "no rule ran")
    out.append("")
    return out


def _checked(summary: dict[str, int]) -> str:
    failed = ", ".join(f"{summary[k]} {k.upper()}" for k in ("fail", "warn", "note") if summary[k])
    text = f"{count(summary['checked'], 'rule')}: {summary['ok']} OK" + (f", {failed}" if failed else "")
    if summary["skipped"]:
        text += f"; {summary['skipped']} skipped (other architectures or conditions)"
    return text


SHOW = ("checked", "failures", "all")  # the rows checked (the default), only failures, or also the skipped


def _wanted(check: dict[str, Any], show: str) -> bool:
    if show == "failures":
        return check["status"] == "fail"
    return check["status"] != "skip" or show == "all"


def _table(checks: list[dict[str, Any]], shown_ids: set[str], width: int | None) -> RenderableType:
    wide = [_wide_row(check, shown_ids) for check in checks]
    if reason_fits(WIDE, wide, width):
        return columns(WIDE, wide, wrap=len(WIDE) - 1)
    narrow: list[list[Cell]] = []
    for check in checks:
        narrow.append([check["rule"], _result(check, shown_ids), _setting(check)])
        narrow.append(["", "", styled(_reason(check), "dim")])
    return columns(NARROW, narrow, wrap=2)


def reason_fits(header: list[str], rows: list[list[Cell]], width: int | None) -> bool:
    """Whether a table whose last column is a reason reads well within width
    (None: no limit), that column folded under itself; if not, the narrow
    form puts the reason under each row."""
    if width is None:
        return True
    before = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header) - 1)]
    return sum(before) + len(GAP) * (len(header) - 1) + MIN_WRAPPED <= width


def _wide_row(check: dict[str, Any], shown_ids: set[str]) -> list[Cell]:
    return [check["rule"], _option(check), _desired(check), _actual(check), _result(check, shown_ids), _reason(check)]


def _result(check: dict[str, Any], shown_ids: set[str]) -> Cell:
    """OK, FAIL, WARN, NOTE or skipped: the value itself is the actual column's."""
    if check["status"] == "skip":
        word = "skipped"
    elif check["status"] == "ok":
        word = "OK"
    else:
        word = FAILED[Severity.from_label(check["severity"])]
    hidden = " (hidden)" if check["status"] == "fail" and check["rule"] not in shown_ids else ""
    return styled(word + hidden, RESULT_STYLES[word])  # hidden: suppressed in the config or in the baseline


def _option(check: dict[str, Any]) -> str:
    return check["option"] if check["option"] == "kernel version" else f"CONFIG_{check['option']}"


def _desired(check: dict[str, Any]) -> str:
    desired = check["desired"]
    return desired if len(desired) <= 24 else desired.split(" (of ", 1)[0] + " (choice)"


def _actual(check: dict[str, Any]) -> str:
    if check["status"] == "skip":
        return "-"
    return check["actual"] + (f" (as {check['read_as']})" if check["read_as"] else "")


def _reason(check: dict[str, Any]) -> str:
    """Why the rule exists, or why it was skipped (`arm64 only`)."""
    return check["result"].removeprefix("SKIP: ") if check["status"] == "skip" else check["reason"]


def _setting(check: dict[str, Any]) -> str:
    """The narrow table's option cell: `CONFIG_DRM: m, desired is not set`,
    `CONFIG_HZ_PERIODIC: not chosen (NO_HZ_IDLE is)`."""
    if check["status"] == "skip":
        return _option(check)
    if check["desired"].startswith("y (of "):  # a member of a Kconfig choice
        chosen = "chosen" if check["status"] == "ok" else f"not chosen ({check['actual']} is)"
        return f"{_option(check)}: {chosen}"
    wanted = f", desired {_desired(check)}" if check["status"] == "fail" else ""
    return f"{_option(check)}: {_actual(check)}{wanted}"
