"""PK402: 32 used as the number of bits in a long or a pointer."""

from __future__ import annotations

import re

from portkit.commands.scan.check import Check, Constants
from portkit.commands.scan.unit import Unit
from portkit.cparse.walk import folded_children, kind_table, preorder
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK402",
    name="pointer-bits-literal",
    severity=Severity.WARNING,
    family="Magic numbers",
    summary="The literal 32 as the bit width of a long or a pointer-sized value (shifts, rotations, bit loops).",
    why=(
        "A rotation written as (x << n) | (x >> (32 - n)) or a loop over the 32 bits of an unsigned "
        "long was right while long had 32 bits. On LP64 it has 64: the rotation mixes in zeros "
        "instead of the wrapped bits, and the loop never looks at the upper half."
    ),
    wrong="unsigned long h;\nh = (h << 5) | (h >> (32 - 5));\nfor (i = 0; i < 32; i++) if (mask & (1UL << i)) n++;",
    right="uint32_t h;   /* the hash is 32-bit by design */\n"
    "h = (h << 5) | (h >> (32 - 5));\n"
    "for (i = 0; i < CHAR_BIT * sizeof mask; i++) if (mask & (1UL << i)) n++;",
    fix="Use a fixed-width type (uint32_t) when the algorithm is 32-bit, or CHAR_BIT * sizeof(x) when it "
    "follows the type.",
)

SHIFTS = frozenset({"<<", ">>", "<<=", ">>="})
COMPARISONS = frozenset({"<", "<=", "!=", ">", ">="})
BINARY_OPERATOR = 114  # CXCursor_BinaryOperator, by number: asked of every condition
LITERALS = kind_table((106,))  # CXCursor_IntegerLiteral
SHIFT_KINDS = kind_table((114, 115))  # CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator


def _literal_32(unit: Unit, node):
    """The literal 32 in a rotation's shift amount: 32 - n. (A plain >> 32 is
    64-bit code already: at home it shifted a 32-bit long by its width.)"""
    ci = unit.ci
    node = unit.strip(node)
    if node.kind == ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(node) == "-":
        first = unit.strip(unit.children(node)[0])
        if first.kind == ci.CursorKind.INTEGER_LITERAL and unit.value(first) == 32:
            return first
    return None


def _grows(unit: Unit, node) -> bool:
    value = unit.width_of(unit.strip(node))
    return value.integer and value.grows and value.source == 4


def on_shift(unit: Unit, node, _parent) -> None:
    if unit.binary_operator(node) not in SHIFTS:
        return
    children = unit.children(node)
    if len(children) != 2 or not _grows(unit, children[0]):
        return
    literal = _literal_32(unit, children[1])
    if literal is not None:
        unit.report(RULE, literal, _message(unit, children[0]), anchor=node)


def on_bounded(unit: Unit, node, _parent) -> None:
    """A condition that bounds a shift count by 32, and a shift of a long by it:
    for (i = 0; i < 32; i++) ... x >> i ...;  n >= 32 ? ~0UL : (1UL << n) - 1."""
    ci = unit.ci
    found = _bound_32(
        unit, unit.children(node)[0] if node.kind != ci.CursorKind.FOR_STMT else _for_condition(unit, node)
    )
    if found is None:
        return
    bound, counter = found
    for inner in preorder(ci, node, SHIFT_KINDS):  # in C: the bindings' walk_preorder() made an object of every node
        if unit.binary_operator(inner) not in SHIFTS:
            continue
        value, amount = unit.children(inner)
        if unit.strip(amount).spelling == counter and _grows(unit, value):
            unit.report(RULE, bound, _message(unit, value))
            return


def _for_condition(unit: Unit, loop):
    """The condition of a for statement: its first comparison child."""
    for child in unit.children(loop):
        if child.kind == unit.ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(child) in COMPARISONS:
            return child
    return None


def _bound_32(unit: Unit, condition):
    """(the literal, the variable's name) of `v < 32`, `v >= 32`, `32 > v`, ..."""
    ci = unit.ci
    if condition is None:
        return None
    condition = unit.strip(condition)
    if condition._kind_id != BINARY_OPERATOR or unit.binary_operator(condition) not in COMPARISONS:
        return None
    if not any(folded_children(ci, condition, LITERALS, (31, 32))):
        return None  # most conditions: no side is 31 or 32 (asked in C, one call)
    sides = [unit.strip(c) for c in unit.children(condition)]
    for literal, variable in (sides, sides[::-1]):
        if literal.kind == ci.CursorKind.INTEGER_LITERAL and unit.value(literal) in (31, 32) and variable.spelling:
            return literal, variable.spelling
    return None


def _message(unit: Unit, operand) -> str:
    pair = unit.pair
    value = unit.width_of(unit.strip(operand))
    return f"32 taken as the bits of {value.describe(pair)}: it has {8 * value.target} on {pair.target.label}"


# A file that never writes 31 or 32 has no such literal to find. (`\b3[12]\b`
# written so that the search starts from the literal: a leading \b made it
# look at every character, 40 ms a large file.)
WRITTEN = re.compile(r"3(?<!\w3)[12](?!\w)")

CHECK = Check(
    RULE,
    applies=lambda unit: unit.mentions(WRITTEN),
    operators={"BINARY_OPERATOR": frozenset({"<<", ">>"}), "COMPOUND_ASSIGNMENT_OPERATOR": frozenset({"<<=", ">>="})},
    # a 31 or 32 in a shift's amount (32 - n) or in the comparison a condition tests, asked in C
    constants=Constants(LITERALS, (31, 32), below=True),
    nodes={
        "BINARY_OPERATOR": on_shift,
        "COMPOUND_ASSIGNMENT_OPERATOR": on_shift,
        **dict.fromkeys(("FOR_STMT", "IF_STMT", "WHILE_STMT", "CONDITIONAL_OPERATOR"), on_bounded),
    },
)
