"""The text report: what was read, then a table shaped like
kernel-hardening-checker's (option, desired, actual, result, reason), one row
per rule checked; --show failures keeps only the rows that failed, --show all
adds the rules skipped for another architecture or an unmet condition.
It is drawn from the JSON document, so text and JSON never disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from portkit.core.output import columns, fields, styled

if TYPE_CHECKING:
    from rich.console import RenderableType

RESULT_STYLES = {"FAIL": "bold red", "WARN": "bold magenta", "NOTE": "bold cyan", "OK": "green", "SKIP": "dim"}


def render_header(document: dict[str, Any], show: str) -> list[RenderableType]:
    config, kernel, summary = document["config"], document["kernel"], document["summary"]
    arch = kernel["arch"] or "unknown"
    if kernel["arch_symbol"]:
        arch += f" (CONFIG_{kernel['arch_symbol']}, line {kernel['arch_line']})"
    read = config["path"] + (f" ({config['compression']})" if config["compression"] else "")
    if config["source"] == "running":
        read += f", the running kernel {config['release']}"
    elif config["source"] == "target":
        read += f", the kernel {config['release']} on {document['target']}"
    out: list[RenderableType] = [
        fields(
            [
                ("config", read),
                ("kernel", f"{kernel['version'] or 'version unknown'}, {arch}"),
                (
                    "read",
                    f"{config['settings']} settings in {config['lines']} lines, {len(document['problems'])} problems",
                ),
                ("checked", _checked(summary)),
            ]
        ),
        "",
    ]
    shown_ids = {f["rule"] for f in document["findings"]}
    rows = [_row(check, shown_ids) for check in document["checks"] if _wanted(check, show)]
    if rows:
        out.append(columns(["rule", "option", "desired", "actual", "result", "reason"], rows))
    else:
        out.append("no rule failed" if show == "failures" else "no rule ran")
    out.append("")
    return out


def _checked(summary: dict[str, int]) -> str:
    failed = ", ".join(f"{summary[k]} {k.upper()}" for k in ("fail", "warn", "note") if summary[k])
    rules = "rule" if summary["checked"] == 1 else "rules"
    text = f"{summary['checked']} {rules}: {summary['ok']} OK" + (f", {failed}" if failed else "")
    if summary["skipped"]:
        text += f"; {summary['skipped']} skipped (other architectures or conditions)"
    return text


SHOW = ("checked", "failures", "all")  # the rows checked (the default), only failures, or also the skipped


def _wanted(check: dict[str, Any], show: str) -> bool:
    if show == "failures":
        return check["status"] == "fail"
    return check["status"] != "skip" or show == "all"


def _row(check: dict[str, Any], shown_ids: set[str]) -> list:
    result = check["result"]
    if check["status"] == "fail" and check["rule"] not in shown_ids:
        result += " (hidden)"  # suppressed in the config or listed in the baseline
    word = result.split(":", 1)[0].split(" ", 1)[0]
    option = check["option"] if check["option"] == "kernel version" else f"CONFIG_{check['option']}"
    desired = check["desired"] if len(check["desired"]) <= 24 else check["desired"].split(" (of ", 1)[0] + " (choice)"
    return [
        check["rule"],
        option,
        desired,
        check["actual"] or "-",
        styled(result, RESULT_STYLES.get(word, "")),
        check["reason"],
    ]
