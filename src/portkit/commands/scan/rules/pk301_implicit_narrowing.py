"""PK301: a value that is 64-bit on the target narrowed implicitly to 32 bits."""

from __future__ import annotations

from portkit.commands.scan.expressions import narrowing_check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK301",
    name="implicit-narrowing",
    severity=Severity.WARNING,
    family="Implicit narrowing",
    summary="A value that is 64-bit in the target data model converted implicitly to a 32-bit type.",
    why=(
        "long, size_t, ssize_t, ptrdiff_t, off_t and pointer differences are 32 bits on ILP32 and 64 "
        "on LP64. Results of strlen, sizeof, strtol, ftell, lseek or read stored in an int were whole "
        "at home; on the target the upper half is dropped without a word, and a length, an offset "
        "or an error code becomes another number. Not reported: a narrowing that gives the same value in both "
        "models: 32-bit values through 64-bit arithmetic and back ((int)(n * sizeof x) of an int n keeps the "
        "same low 32 bits), or a value bounded by what went into it (read(fd, buf, 512), a constant)."
    ),
    wrong="int len = strlen(name);\nint pos = ftell(fp);\nint d = end - start;",
    right="size_t len = strlen(name);\nlong pos = ftell(fp);\nptrdiff_t d = end - start;",
    fix="Give the variable (or parameter, or return type) the type of the value: size_t, ssize_t, "
    "ptrdiff_t, off_t or long; or convert explicitly after checking the range.",
)


def _message(unit: Unit, before, after) -> str:
    pair = unit.pair
    return (
        f"{before.describe(pair)} narrowed to {after.describe(pair)}: the upper "
        f"{8 * (before.target - after.target)} bits are dropped on {pair.target.label}"
    )


CHECK = narrowing_check(RULE, time=False, message=_message)
