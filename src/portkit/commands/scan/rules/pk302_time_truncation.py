"""PK302: time_t kept in a 32-bit integer (the year 2038)."""

from __future__ import annotations

from portkit.commands.scan.expressions import narrowing_check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK302",
    name="time-truncation",
    severity=Severity.WARNING,
    family="Implicit narrowing",
    summary="A time_t (or a timeval/timespec seconds field) stored in a 32-bit integer.",
    why=(
        "time_t is a long: 32 bits on ILP32 (and ends on 19 January 2038), 64 bits on LP64. Code "
        "that keeps time in an int worked at home because both were 32 bits; on the target the "
        "time is cut back to 32 bits, so the program keeps the 2038 limit the new platform removed, "
        "and file formats or messages that carry time as int silently disagree with time_t."
    ),
    wrong="int now = time(NULL);\nint sec = tv.tv_sec;",
    right="time_t now = time(NULL);\ntime_t sec = tv.tv_sec;",
    fix="Keep times in time_t. Where a file or wire format fixes the width, write an explicit "
    "int64_t (or a deliberate, documented 32-bit field with a range check).",
)


def _message(unit: Unit, before, after) -> str:
    pair = unit.pair
    return (
        f"time {before.describe(pair)} stored in {after.describe(pair)}: "
        f"cut back to 32 bits on {pair.target.label}, it ends in 2038"
    )


CHECK = narrowing_check(RULE, time=True, message=_message)
