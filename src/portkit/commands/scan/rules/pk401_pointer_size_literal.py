"""PK401: 4 used as the size of a pointer or a long in an allocation or copy."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import Width
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK401",
    name="pointer-size-literal",
    severity=Severity.WARNING,
    family="Magic numbers",
    summary="The literal 4 for the size of a pointer or long, in a size given to malloc, calloc, realloc, memcpy "
    "or memset.",
    why=(
        "On ILP32 a pointer and a long take 4 bytes, and code often wrote that number instead of "
        "sizeof. On LP64 they take 8: the buffer is half as large as the elements need, and memcpy "
        "or memset covers only half of them."
    ),
    wrong="char **argv = malloc(argc * 4);\nmemset(table, 0, n * 4);   /* long table[] */",
    right="char **argv = malloc(argc * sizeof *argv);\nmemset(table, 0, n * sizeof table[0]);",
    fix="Write sizeof of the element (sizeof *p, sizeof(long)) instead of its size in bytes.",
)

# Function -> (index of the size argument(s), index of the pointer argument, or -1: the result)
SIZED_CALLS = {
    "malloc": ((0,), -1),
    "calloc": ((1,), -1),  # calloc(count, size): 4 as the count is no size
    "realloc": ((1,), -1),
    "reallocarray": ((2,), -1),
    "alloca": ((0,), -1),
    "memcpy": ((2,), 0),
    "memmove": ((2,), 0),
    "memset": ((2,), 0),
    "memcmp": ((2,), 0),
    "bzero": ((1,), 0),
    "bcopy": ((2,), 1),
}


def on_call(unit: Unit, call, parent) -> None:
    sized = SIZED_CALLS.get(unit.callee_name(call))
    if sized is None:
        return
    sizes, pointer_index = sized
    arguments = unit.arguments(call)
    if max(sizes) >= len(arguments) or pointer_index >= len(arguments):
        return
    element = _element(unit, arguments[pointer_index] if pointer_index >= 0 else None, parent)
    if element is None or not (element.grows and element.source == 4):
        return
    for index in sizes:
        literal = _literal_four(unit, arguments[index])
        if literal is not None:
            pair = unit.pair
            message = (
                f"4 bytes per element, but the elements are {element.describe(pair)}: "
                f"the size is half of what {pair.target.label} needs"
            )
            unit.report(RULE, literal, message, anchor=call)


def _element(unit: Unit, pointer, parent) -> Width | None:
    """The element type the memory holds: what the destination points to, or
    for an allocation, what its result is converted or cast to."""
    ci = unit.ci
    if pointer is None:
        holder = parent
        if holder.kind != ci.CursorKind.UNEXPOSED_EXPR and holder.kind not in (
            ci.CursorKind.CSTYLE_CAST_EXPR,
            ci.CursorKind.CXX_STATIC_CAST_EXPR,
            ci.CursorKind.CXX_REINTERPRET_CAST_EXPR,
        ):
            return None
        t = holder.type
    else:
        t = unit.strip(pointer).type
    canonical = t.get_canonical()
    if canonical.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        return unit.width(canonical.element_type)  # memset(table, 0, n * 4) of long table[]
    if canonical.kind != ci.TypeKind.POINTER:
        return None
    pointee = t.get_pointee() if t.kind == ci.TypeKind.POINTER else canonical.get_pointee()
    return unit.width(pointee)


def _literal_four(unit: Unit, expression):
    """The literal 4 as a factor of a size expression (4, n * 4, 4 * n, (n + 1) * 4);
    none where a sizeof is a factor too (4 * sizeof(char *) counts four pointers)."""
    ci = unit.ci
    node = unit.strip(expression)
    if any(n.kind == ci.CursorKind.CXX_UNARY_EXPR for n in node.walk_preorder()):
        return None
    if node.kind == ci.CursorKind.INTEGER_LITERAL:
        return node if unit.value(node) == 4 else None
    if node.kind == ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(node) == "*":
        for side in unit.children(node):
            found = _literal_four(unit, side)
            if found is not None:
                return found
    return None


CHECK = Check(RULE, nodes={"CALL_EXPR": on_call})
