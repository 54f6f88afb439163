"""PK601: a loop counter narrower than the 64-bit bound it counts to."""

from __future__ import annotations

from portkit.commands.scan.rules.check import Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK601",
    name="narrow-loop-counter",
    severity=Severity.WARNING,
    family="Loops and arithmetic",
    summary="A loop counter of type int or unsigned compared with a bound that is 64-bit in the target data model.",
    why=(
        "With a size_t or long bound, an int counter was as wide as the bound on ILP32. On LP64 the "
        "bound can exceed 2^31 (or 2^32): an int counter overflows (undefined behaviour, in practice "
        "a negative index) and an unsigned one wraps to 0 and the loop never ends."
    ),
    wrong="for (int i = 0; i < len; i++)   /* size_t len */",
    right="for (size_t i = 0; i < len; i++)",
    fix="Give the counter the bound's type (size_t, ptrdiff_t, long).",
)

COMPARISONS = frozenset({"<", "<=", ">", ">=", "!="})


def on_for(unit: Unit, loop, _parent) -> None:
    ci = unit.ci
    for child in unit.children(loop):
        if child.kind != ci.CursorKind.BINARY_OPERATOR or unit.binary_operator(child) not in COMPARISONS:
            continue
        sides = [unit.strip(c) for c in unit.children(child)]
        if len(sides) != 2:
            return
        for counter, bound in (sides, sides[::-1]):
            if counter.kind != ci.CursorKind.DECL_REF_EXPR:
                continue
            narrow, wide = unit.width_of(counter), unit.width_of(bound)
            if not (narrow.integer and wide.integer and narrow.known and wide.known):
                continue
            if narrow.target < wide.target and narrow.source >= wide.source and unit.value(bound) is None:
                pair = unit.pair
                message = (
                    f"counter '{counter.spelling}' is {narrow.describe(pair)}, its bound {wide.describe(pair)}: "
                    f"past 2^{8 * narrow.target - (1 if narrow.kind == 'signed' else 0)} on {pair.target.label} "
                    "it overflows or wraps"
                )
                unit.report(RULE, counter, message)
                return
        return  # the loop's condition is the first comparison among its children


CHECK = Check(RULE, nodes={"FOR_STMT": on_for})
