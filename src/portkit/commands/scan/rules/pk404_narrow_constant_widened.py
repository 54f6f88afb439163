"""PK404: ~0U or 1 << n computed in 32 bits, then widened into a 64-bit value."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.values import consumer
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK404",
    name="narrow-constant-widened",
    severity=Severity.WARNING,
    family="Magic numbers",
    summary="~0U, or 1 << n in int, used as a mask of a value that is 64-bit on the target.",
    why=(
        "~0U is all bits of an unsigned int, and 1 << n is an int. Stored in an unsigned long they "
        "filled it on ILP32; on LP64 ~0U sets only the lower 32 bits, and 1 << n for n >= 31 "
        "overflows int before it is widened, so bits 31..63 can never be set."
    ),
    wrong="unsigned long all = ~0U;\nunsigned long bit = 1 << n;",
    right="unsigned long all = ~0UL;\nunsigned long bit = 1UL << n;",
    fix="Build the constant in the wide type: ~0UL, 1UL << n, or (uint64_t)1 << n.",
)


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    after, before = conversion.after, conversion.before
    if not (after.integer and after.grows and before.integer and before.known and before.target < after.target):
        return
    if after.source != before.source:
        return  # it was widened at home too
    node = unit.strip(conversion.value)
    ci = unit.ci
    if node.kind == ci.CursorKind.UNARY_OPERATOR and unit.unary_operator(node) == "~" and before.kind == "unsigned":
        what = "~ of a 32-bit unsigned int"
    elif node.kind == ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(node) == "<<":
        value = unit.value(node)
        if value is not None and 0 <= value < 1 << 31:
            return  # a constant shift that fits: 1 << 4 is 16 in every model
        if unit.value(unit.children(node)[0]) is None:
            return  # x << n of a variable: PK602's
        what = "a 32-bit shift of a constant"
    else:
        return
    pair = unit.pair
    message = f"{what} widened into {after.describe(pair)}: its upper 32 bits stay 0 on {pair.target.label}"
    unit.report(RULE, node, message, anchor=lambda: consumer(unit, conversion.result))


CHECK = Check(RULE, conversions=on_conversion)
