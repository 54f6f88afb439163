"""PK301: a value that is 64-bit on the target narrowed implicitly to 32 bits."""

from __future__ import annotations

from portkit.commands.scan.expressions import compound_narrowing, is_time, narrowed_product, narrowing
from portkit.commands.scan.messages import diagnostic_location
from portkit.commands.scan.rules.check import Check
from portkit.commands.scan.unit import Conversion, Unit
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
        "or an error code becomes another number."
    ),
    wrong="int len = strlen(name);\nint pos = ftell(fp);\nint d = end - start;",
    right="size_t len = strlen(name);\nlong pos = ftell(fp);\nptrdiff_t d = end - start;",
    fix="Give the variable (or parameter, or return type) the type of the value: size_t, ssize_t, "
    "ptrdiff_t, off_t or long; or convert explicitly after checking the range.",
)


def on_diagnostic(unit: Unit, diag) -> None:
    found = narrowing(unit, diag)
    if found is None or found[2]:
        return
    before, after, _ = found
    unit.add(RULE, diagnostic_location(diag), _message(unit, before, after))


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    if narrowed_product(unit, conversion) and not is_time(unit, unit.strip(conversion.value).type.spelling):
        unit.report(RULE, unit.strip(conversion.value), _message(unit, conversion.before, conversion.after))


def on_compound(unit: Unit, node, _parent) -> None:
    found = compound_narrowing(unit, node)
    if found is not None and not found[2]:
        unit.report(RULE, node, _message(unit, found[0], found[1]))


def _message(unit: Unit, before, after) -> str:
    pair = unit.pair
    return (
        f"{before.describe(pair)} narrowed to {after.describe(pair)}: the upper "
        f"{8 * (before.target - after.target)} bits are dropped on {pair.target.label}"
    )


CHECK = Check(
    RULE,
    nodes={"COMPOUND_ASSIGNMENT_OPERATOR": on_compound},
    diagnostics={"-Wshorten-64-to-32": on_diagnostic},
    conversions=on_conversion,
)
