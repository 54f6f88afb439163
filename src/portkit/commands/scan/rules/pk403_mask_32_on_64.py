"""PK403: a 32-bit mask or sentinel applied to a value that is 64-bit on the target."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK403",
    name="mask-32-on-64",
    severity=Severity.WARNING,
    family="Magic numbers",
    summary="0x7FFFFFFF, 0x80000000 or 0xFFFFFFFF as a mask, limit or sentinel of a long, size_t "
    "or pointer-sized value.",
    why=(
        "These constants are the maximum, the minimum and all bits of a 32-bit value. As masks and "
        'comparisons on a long they meant "all of it" on ILP32; on LP64 the mask clears the upper '
        "32 bits, 0x80000000 is no longer the sign bit, and a long that holds -1 is not equal to "
        "0xFFFFFFFF, so error checks stop firing."
    ),
    wrong="long v;\nif (v == 0xFFFFFFFF) return -1;\nv &= 0x7FFFFFFF;",
    right="long v;\nif (v == -1) return -1;\nv &= LONG_MAX;   /* or a fixed-width type for a 32-bit field */",
    fix="Use the limits of the value's own type (LONG_MAX, SIZE_MAX, -1, ~0UL) or a fixed-width type "
    "(uint32_t, UINT32_MAX) where 32 bits is what is meant.",
)

MAGIC = {0x7FFFFFFF: "0x7FFFFFFF", 0x80000000: "0x80000000", 0xFFFFFFFF: "0xFFFFFFFF"}


# CXCursor_IntegerLiteral and CXCursor_CStyleCastExpr (~0U is PK404's), by
# number: asked of most operands, where a kind's name costs a lookup.
CONSTANT_KIND_IDS = frozenset({106, 117})


# The C library's names for these limits: `if (x > INT_MAX) x = INT_MAX;` is the
# clamp before a narrowing, deliberate, not a magic number.
NAMED_LIMITS = frozenset({"INT_MAX", "INT_MIN", "UINT_MAX", "INT32_MAX", "INT32_MIN", "UINT32_MAX", "SSIZE_MAX"})


def magic(unit: Unit, node) -> int | None:
    """The 32-bit limit a constant expression of a 32-bit type spells, if it is
    one and is not spelled by its standard name."""
    constant = unit.strip(node)
    if constant._kind_id not in CONSTANT_KIND_IDS or unit.value(constant) not in MAGIC:
        return None
    if unit.spelled(constant) in NAMED_LIMITS:
        return None
    width = unit.width_of(constant)
    return unit.value(constant) if width.integer and width.target == 4 else None


def _grows(value) -> bool:
    return value.grows and value.source == 4 and (value.integer or value.kind == "pointer")


def _report(unit: Unit, node, limit: int, value) -> None:
    pair = unit.pair
    message = (
        f"{MAGIC[limit]} is a 32-bit limit, applied to {value.describe(pair)}: "
        f"on {pair.target.label} it covers only the lower half"
    )
    unit.report(RULE, unit.strip(node), message)


# Masks, equality and assignment: a relational comparison (n > 0x7FFFFFFF) is
# usually the range check before a narrowing, which is right.
OPERATORS = frozenset({"&", "|", "^", "==", "!=", "=", "&=", "|=", "^="})


def on_binary(unit: Unit, node, _parent) -> None:
    if unit.binary_operator(node) not in OPERATORS:
        return
    children = unit.children(node)
    if len(children) != 2:
        return
    operator = unit.binary_operator(node)
    for constant, other in ((children[1], children[0]), (children[0], children[1])):
        limit = magic(unit, constant)
        if limit == 0xFFFFFFFF and operator in ("&", "&="):
            return  # a no-op at home: written on purpose to keep 32 bits (crc & 0xffffffff)
        if limit is not None:
            value = unit.width_of(unit.strip(other))
            if _grows(value):
                _report(unit, constant, limit, value)
            return


def on_variable(unit: Unit, variable, _parent) -> None:
    """long max = 0x7FFFFFFF;"""
    value = unit.width_of(variable)
    if not _grows(value):
        return
    children = unit.children(variable)
    limit = magic(unit, children[-1]) if children else None
    if limit is not None:
        _report(unit, children[-1], limit, value)


CHECK = Check(
    RULE,
    nodes={"BINARY_OPERATOR": on_binary, "COMPOUND_ASSIGNMENT_OPERATOR": on_binary, "VAR_DECL": on_variable},
)
