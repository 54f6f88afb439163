"""PK601: a loop counter narrower than the 64-bit bound it counts to."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.cparse.walk import kind_table, preorder
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


def on_loop(unit: Unit, loop, _parent) -> None:
    ci = unit.ci
    condition = _condition(unit, loop)
    for comparison in _comparisons(unit, condition) if condition is not None else ():
        sides = [unit.strip(c) for c in unit.children(comparison)]
        for counter, bound in (sides, sides[::-1]):
            if counter.kind != ci.CursorKind.DECL_REF_EXPR:
                continue
            narrow, wide = unit.width_of(counter), unit.width_of(bound)
            if not (narrow.integer and wide.integer and narrow.known and wide.known):
                continue
            if narrow.target >= wide.target or narrow.source < wide.source or unit.value(bound) is not None:
                continue
            if _counts(unit, _stepping_part(unit, loop, condition), counter.spelling):
                pair = unit.pair
                message = (
                    f"counter '{counter.spelling}' is {narrow.describe(pair)}, its bound {wide.describe(pair)}: "
                    f"past 2^{8 * narrow.target - (1 if narrow.kind == 'signed' else 0)} on {pair.target.label} "
                    "it overflows or wraps"
                )
                unit.report(RULE, counter, message)
                return


STEPS = kind_table((112, 115))  # CXCursor_UnaryOperator, CXCursor_CompoundAssignOperator: what steps a counter


def _counts(unit: Unit, loop, name: str) -> bool:
    """The variable steps through the loop: ++, --, += or -= on it somewhere in it."""
    ci = unit.ci
    for node in preorder(ci, loop, STEPS):  # in C: the bindings' walk_preorder() made an object of every node
        if (node.kind == ci.CursorKind.UNARY_OPERATOR and unit.unary_operator(node) in ("++", "--")) or (
            node.kind == ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR and unit.binary_operator(node) in ("+=", "-=")
        ):
            pass
        else:
            continue
        operand = unit.strip(unit.children(node)[0])
        if operand.kind == ci.CursorKind.DECL_REF_EXPR and operand.spelling == name:
            return True
    return False


def _stepping_part(unit: Unit, loop, condition):
    """Where a loop's counter steps: a for loop's increment clause (the child
    after its condition, before its body); a while or do loop's whole self."""
    if loop.kind != unit.ci.CursorKind.FOR_STMT:
        return loop
    children = unit.children(loop)
    keys = [(c.extent.start.line, c.extent.start.column) for c in children]
    here = (condition.extent.start.line, condition.extent.start.column)
    position = keys.index(here) if here in keys else -1
    return children[position + 1] if 0 <= position < len(children) - 2 else loop


def _condition(unit: Unit, loop):
    """for: the first expression child that is a comparison or && / || of them; while: its first child; do: its last."""
    ci = unit.ci
    children = unit.children(loop)
    if not children:
        return None
    if loop.kind == ci.CursorKind.WHILE_STMT:
        return children[0]
    if loop.kind == ci.CursorKind.DO_STMT:
        return children[-1]
    for child in children:
        if unit.strip(child).kind == ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(unit.strip(child)) in (
            *COMPARISONS,
            "&&",
            "||",
        ):
            return child
    return None


def _comparisons(unit: Unit, condition) -> list:
    """The comparisons of a condition, through && and ||."""
    node = unit.strip(condition)
    if node.kind != unit.ci.CursorKind.BINARY_OPERATOR:
        return []
    operator = unit.binary_operator(node)
    if operator in ("&&", "||"):
        return [c for child in unit.children(node) for c in _comparisons(unit, child)]
    return [node] if operator in COMPARISONS else []


CHECK = Check(RULE, nodes=dict.fromkeys(("FOR_STMT", "WHILE_STMT", "DO_STMT"), on_loop))
