"""PK403: a 32-bit mask or sentinel applied to a value that is 64-bit on the target."""

from __future__ import annotations

import re

from portkit.commands.scan.check import Check, Constants
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.values import fits, narrowed_back, value_range
from portkit.cparse.walk import folded_children, kind_table
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
        "0xFFFFFFFF, so error checks stop firing. Not reported, as 32 bits meant in every model: x & "
        "0xFFFFFFFF and x ^ 0xFFFFFFFF (a CRC-32's complement), a result converted back to 32 bits, a "
        "comparison of a value that came from 32 bits (a header's size field), and 0x7FFFFFFF given to an "
        "unsigned value, where it is no limit of the type but a format's own (a 2^31-1 length limit)."
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
CONSTANT_KINDS = kind_table(CONSTANT_KIND_IDS)
LIMITS = tuple(MAGIC)


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


def _report(unit: Unit, node, limit: int, value, anchor=None) -> None:
    pair = unit.pair
    message = (
        f"{MAGIC[limit]} is a 32-bit limit, applied to {value.describe(pair)}: "
        f"on {pair.target.label} it covers only the lower half"
    )
    unit.report(RULE, unit.strip(node), message, anchor=anchor)


# Masks, equality and assignment: a relational comparison (n > 0x7FFFFFFF) is
# usually the range check before a narrowing, which is right.
BINARY = frozenset({"&", "|", "^", "==", "!=", "="})
COMPOUND = frozenset({"&=", "|=", "^="})
OPERATORS = BINARY | COMPOUND


def _spells_a_limit(unit: Unit, node, last_only: bool = False) -> bool:
    """Whether one of the node's children (the last: an initializer) could be
    a magic() constant, asked in C: almost no assignment or mask has one, and
    asking magic() of each operand in Python was most of this rule's cost."""
    marks = folded_children(unit.ci, node, CONSTANT_KINDS, LIMITS)
    return bool(marks) and (marks[-1] == 1 if last_only else 1 in marks)


def on_binary(unit: Unit, node, _parent) -> None:
    operator = unit.binary_operator(node)
    if operator not in OPERATORS or not _spells_a_limit(unit, node):
        return
    children = unit.children(node)
    if len(children) != 2:
        return
    for constant, other in ((children[1], children[0]), (children[0], children[1])):
        limit = magic(unit, constant)
        if limit is None:
            continue
        value = unit.width_of(unit.strip(other))
        if _grows(value) and not _meant_32_bits(unit, node, operator, limit, other, value):
            _report(unit, constant, limit, value, anchor=node)
        return


def _meant_32_bits(unit: Unit, node, operator: str, limit: int, other, value) -> bool:
    """Where the constant is a 32-bit quantity on purpose, the same in both models."""
    if limit == 0xFFFFFFFF and operator in ("&", "&=", "^", "^="):
        # & is a no-op at home, ^ the complement of the low 32 bits (~x at
        # home would say "all of it"): written to keep 32 bits (a CRC-32)
        return True
    if operator in ("&", "|", "^") and narrowed_back(unit, node):
        return True  # the upper half is dropped again: the low 32 bits are the same in both
    if operator in ("==", "!=") and fits(value_range(unit, other), "unsigned", 4):
        return True  # a value that came from 32 bits (a header's size field) equals the limit in both or neither
    # 0x7FFFFFFF is no limit of an unsigned type at home: a format's own
    # (a 2^31-1 length limit), the same number in both models
    return limit == 0x7FFFFFFF and value.kind == "unsigned" and operator in ("==", "!=", "=")


def on_variable(unit: Unit, variable, _parent) -> None:
    """long max = 0x7FFFFFFF;"""
    if not _spells_a_limit(unit, variable, last_only=True):
        return
    value = unit.width_of(variable)
    if not _grows(value):
        return
    children = unit.children(variable)
    limit = magic(unit, children[-1]) if children else None
    if limit is not None and not (limit == 0x7FFFFFFF and value.kind == "unsigned"):
        _report(unit, children[-1], limit, value)


# How the limits are written: in hex (leading zeros, any case, suffixes), in
# decimal, or as a cast of -1 or ~0 ((unsigned)-1); a file that writes none of
# them (in its own text or its project's headers) has none to find. Three
# searches, each starting from a literal: one pattern of the three, and a
# leading \b, looked at every character (70 ms a large file).
WRITTEN = (
    re.compile(r"0[xX]0*(?:7[fF]{7}|80{7}|[fF]{8})(?![0-9a-fA-F])"),  # hex
    re.compile(r"(?:214748364[78]|4294967295)(?<!\w214748364[78])(?<!\w4294967295)(?!\w)"),  # decimal
    re.compile(r"\)\s*(?:-\s*1|~\s*0)\b"),  # (unsigned)-1
)

CHECK = Check(
    RULE,
    applies=lambda unit: any(unit.mentions(way) for way in WRITTEN),
    nodes={"BINARY_OPERATOR": on_binary, "COMPOUND_ASSIGNMENT_OPERATOR": on_binary, "VAR_DECL": on_variable},
    operators={"BINARY_OPERATOR": BINARY, "COMPOUND_ASSIGNMENT_OPERATOR": COMPOUND},
    constants=Constants(CONSTANT_KINDS, LIMITS),  # the walk hands it only nodes with a limit (in C)
)
