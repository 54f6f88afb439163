"""PK401: 4 used as the size of a pointer or a long in an allocation or copy."""

from __future__ import annotations

from portkit.commands.scan.check import Callees, Check
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import Width
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK401",
    name="pointer-size-literal",
    severity=Severity.WARNING,
    family="Magic numbers",
    summary="The size of a pointer or long written as a number (4, or 8 from LP64) in a size given to an "
    "allocation, a memory function (memcpy, memset) or an I/O call (read, write, fread, fwrite, send, recv).",
    why=(
        "On ILP32 a pointer and a long take 4 bytes, and code often wrote that number instead of "
        "sizeof. On LP64 they take 8: the buffer is half as large as the elements need, memcpy or "
        "memset covers only half of them, and read or fread fills the lower half of a long and leaves "
        "the upper half as it was. Code moving from LP64 to LLP64 (Win64) meets the mirror image: 8 for a "
        "long that has 4 bytes there, and every copy writes past it."
    ),
    wrong="char **argv = malloc(argc * 4);\nmemset(table, 0, n * 4);   /* long table[] */\n"
    "fread(&offset, 4, 1, f);   /* long offset */",
    right="char **argv = malloc(argc * sizeof *argv);\nmemset(table, 0, n * sizeof table[0]);\n"
    "int32_t offset32;   /* the file's field is 32 bits */\nfread(&offset32, sizeof offset32, 1, f);",
    fix="Write sizeof of the element (sizeof *p, sizeof(long)) instead of its size in bytes; where a file or "
    "message fixes the width, read into a fixed-width type (int32_t) and convert.",
)

# Function -> (indexes of the size argument(s), indexes of the pointer argument(s): -1 is the result)
SIZED_CALLS = {
    "malloc": ((0,), (-1,)),
    "calloc": ((1,), (-1,)),  # calloc(count, size): 4 as the count is no size
    "realloc": ((1,), (-1,)),
    "reallocarray": ((2,), (-1,)),
    "alloca": ((0,), (-1,)),
    "memcpy": ((2,), (0, 1)),
    "memmove": ((2,), (0, 1)),
    "memset": ((2,), (0,)),
    "memcmp": ((2,), (0, 1)),
    "bzero": ((1,), (0,)),
    "bcopy": ((2,), (1, 0)),
    "read": ((2,), (1,)),
    "write": ((2,), (1,)),
    "pread": ((2,), (1,)),
    "pwrite": ((2,), (1,)),
    "recv": ((2,), (1,)),
    "send": ((2,), (1,)),
    "fread": ((1, 2), (0,)),
    "fwrite": ((1, 2), (0,)),
}


def on_call(unit: Unit, call, parent) -> None:
    sized = SIZED_CALLS.get(unit.callee_name(call))
    if sized is None:
        return
    sizes, pointers = sized
    arguments = unit.arguments(call)
    if max(sizes) >= len(arguments) or max(pointers) >= len(arguments):
        return
    for index in pointers:
        element = _element(unit, arguments[index] if index >= 0 else None, parent)
        if element is None or not element.known or element.source == element.target or element.source not in (4, 8):
            continue
        for size in sizes:
            literal = _literal(unit, arguments[size], element.source)
            if literal is not None:
                unit.report(RULE, literal, _message(unit, element), anchor=call)
                return


def _message(unit: Unit, element: Width) -> str:
    pair = unit.pair
    if element.target > element.source:
        effect = f"the size is half of what {pair.target.label} needs"
    else:
        effect = f"the size is twice what {pair.target.label} has: it reaches past each element"
    return f"{element.source} bytes per element, but the elements are {element.describe(pair)}: {effect}"


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


def _literal(unit: Unit, expression, size: int):
    """The literal `size` as a factor of a size expression (4, n * 4, 4 * n, (n + 1) * 4);
    none where a sizeof is a factor too (4 * sizeof(char *) counts four pointers)."""
    ci = unit.ci
    node = unit.strip(expression)
    if any(n.kind == ci.CursorKind.CXX_UNARY_EXPR for n in node.walk_preorder()):
        return None
    if node.kind == ci.CursorKind.INTEGER_LITERAL:
        return node if unit.value(node) == size else None
    if node.kind == ci.CursorKind.BINARY_OPERATOR and unit.binary_operator(node) == "*":
        for side in unit.children(node):
            found = _literal(unit, side, size)
            if found is not None:
                return found
    return None


CHECK = Check(RULE, nodes={"CALL_EXPR": on_call}, callees=Callees(names=frozenset(SIZED_CALLS)))
