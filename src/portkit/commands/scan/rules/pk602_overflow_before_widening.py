"""PK602: int arithmetic that overflows before its result is widened to 64 bits."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.values import consumer, fits, narrowed_back, value_range
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK602",
    name="overflow-before-widening",
    severity=Severity.WARNING,
    family="Loops and arithmetic",
    summary="A product or shift computed in 32-bit int and only then widened to an unsigned type that is 64-bit "
    "on the target.",
    why=(
        "size_t sz = w * h * 4 multiplies in int and converts the result. On ILP32 a product between "
        "2^31 and 2^32 wrapped to a negative int and came back whole in the 32-bit size_t. On LP64 "
        "the negative int is sign-extended: sz becomes about 2^64, and the allocation fails or a "
        "later size check passes wrongly. (The overflow itself is undefined behaviour in both.) "
        "Not reported: a signed destination (long, off_t), which holds the same negative number in "
        "both models; operands too small to reach 2^31 (bytes, shorts, small constants); and a "
        "result converted straight back to 32 bits, which drops the sign extension again."
    ),
    wrong="size_t sz = width * height * 4;   /* int width, height */",
    right="size_t sz = (size_t)width * height * 4;",
    fix="Convert the first operand to the wide type so the whole expression is computed in it: "
    "(size_t)w * h * 4, (off_t)blocks << 9.",
)

OPERATORS = frozenset({"*", "<<", "+"})
# One variable times this much (sectors, pages, blocks) reaches 2^31 with a count of a few million.
LARGE_SCALE = 256


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    before, after = conversion.before, conversion.after
    if (
        not (before.kind == "signed" and after.kind == "unsigned" and after.grows and before.known)
        or after.source != before.source
    ):
        # unsigned int arithmetic wraps at 2^32 at home and on the target
        # alike; a signed destination keeps the negative int's value in both
        return
    if before.target >= after.target:
        return
    node = unit.strip(conversion.value)
    if node.kind != unit.ci.CursorKind.BINARY_OPERATOR or unit.binary_operator(node) not in OPERATORS:
        return
    if unit.value(node) is not None:
        return
    if len(_runtime_ints(unit, node)) < 2 and _scale(unit, node) < LARGE_SCALE:
        return  # one variable scaled by a small constant: far from 2^31 in practice
    if not _has_product(unit, node):
        return  # a sum of int values gets near 2^31 only with a product inside
    if fits(value_range(unit, node), "signed", before.target):
        return  # built from bytes and small constants (b[0] * 256 + b[1]): it never reaches 2^31
    if narrowed_back(unit, conversion.result, 8 * before.target):
        return  # BZALLOC(n * 100000 * sizeof(short)) into an int parameter: the sign extension is dropped again
    pair = unit.pair
    message = (
        f"computed in {before.describe(pair)}, then widened to {after.describe(pair)}: a result between "
        f"2^31 and 2^32 was whole at home but comes out negative, sign-extended, on {pair.target.label}"
    )
    unit.report(RULE, node, message, anchor=lambda: consumer(unit, conversion.result))


def _scale(unit: Unit, node) -> int:
    """The product of the constant factors of a tree of * and << (1 << 9 counts as 512)."""
    node = unit.strip(node)
    value = unit.value(node)
    if value is not None:
        return abs(value)
    if node.kind != unit.ci.CursorKind.BINARY_OPERATOR:
        return 1
    operator, operands = unit.binary_operator(node), unit.children(node)
    if operator == "*":
        return _scale(unit, operands[0]) * _scale(unit, operands[1])
    if operator == "<<":
        shift = unit.value(operands[1])
        return _scale(unit, operands[0]) << shift if shift is not None and 0 <= shift < 63 else 1
    return max(_scale(unit, o) for o in operands)


def _has_product(unit: Unit, node) -> bool:
    node = unit.strip(node)
    if node.kind != unit.ci.CursorKind.BINARY_OPERATOR:
        return False
    operator = unit.binary_operator(node)
    if operator in ("*", "<<"):
        return True
    return operator == "+" and any(_has_product(unit, child) for child in unit.children(node))


def _runtime_ints(unit: Unit, node) -> list:
    """The operands of a tree of * + << that are not constants and are int-wide
    (a char or short, promoted, cannot carry a product to 2^31 with one other)."""
    node = unit.strip(node)
    if node.kind == unit.ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(node) in OPERATORS:
        return [leaf for child in unit.children(node) for leaf in _runtime_ints(unit, child)]
    if unit.value(node) is not None:
        return []
    width = unit.width_of(node)
    return [node] if width.integer and width.target is not None and width.target >= 4 else []


CHECK = Check(RULE, conversions=on_conversion)
