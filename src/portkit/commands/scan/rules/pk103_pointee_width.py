"""PK103: a cast between pointers whose pointees are one width at home and two on the target."""

from __future__ import annotations

import dataclasses

from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import CASTS
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import Width, differs_only_on_target
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK103",
    name="pointee-width-changes",
    severity=Severity.ERROR,
    family="Pointers and integers",
    summary=(
        "A cast between pointer types whose pointees are the same width in the source data model and "
        "different widths in the target's: the access through it changes size."
    ),
    why=(
        "On ILP32 `uint32_t`, `int`, `long` and pointers are all 4 bytes, so `(unsigned long *)&u32` "
        "handed to a function that stores an `unsigned long` wrote exactly the object. On LP64 the "
        "store is 8 bytes into a 4-byte object: it overwrites whatever lies next to it (util-linux's "
        "`wdctl --flags`). A read takes 4 bytes of a neighbour into the value, or (a `uint32_t *` over "
        "a `long`) only half of it. On LLP64 `long` stays 4 bytes and pointers grow: there `(long *)` "
        "over an `intptr_t` or a `void *` changes width. A `void *`, a byte pointer or an integer made into "
        "a `volatile unsigned long *` is a device register read or written as a 32-bit word on ILP32 "
        "(pciutils' `readl`/`writel`); on LP64 the access is 8 bytes and touches the next register too. "
        "A store that becomes wider than the object is an error, and so is a wider pointer the code may "
        "store through later (handed to a parameter that is not const, kept in a variable); a read, a "
        "narrower access, or a register pointer kept for later is a warning. Not reported: `char` "
        "pointers (bytes are bytes everywhere), pointees of one width in both models, structs, a "
        "`void *` made into a pointer to `long` that is not `volatile` (memory allocated for it), and "
        "`(int *)&names[n]` or `names + n` of a pointer: an address inside one allocation carved into "
        "arrays of several types, where no object of the pointee's type lies; and a cast pointer handed on "
        "as a `void *` (`memset`'s, `fread`'s), which counts bytes itself."
    ),
    wrong=(
        "uint32_t wanted = 0;\n"
        "string_to_bitmask(arg, (unsigned long *) &wanted, name2bit);\n"
        "*(volatile unsigned long *) reg = value;"
    ),
    right=(
        "unsigned long wanted = 0;\nstring_to_bitmask(arg, &wanted, name2bit);\n*(volatile uint32_t *) reg = value;"
    ),
    fix=(
        "Point at the object's own type, or give the object the type the callee reads or writes "
        "(`unsigned long wanted`); for a 32-bit register or field say `uint32_t`, for an address `uintptr_t`."
    ),
)
WARNING = dataclasses.replace(RULE, severity=Severity.WARNING)

SCALAR = frozenset({"signed", "unsigned", "pointer", "float"})
ARRAYS = frozenset({"CONSTANTARRAY", "INCOMPLETEARRAY", "VARIABLEARRAY"})
STORES = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})


def on_cast(unit: Unit, cast, parent) -> None:
    if unit.width_of(cast).kind != "pointer":
        return
    to = pointee(unit, cast.type)
    if to is None:
        return
    into = unit.width(to)
    if into.kind not in SCALAR or not into.known:
        return
    children = unit.children(cast)
    if not children:
        return  # a cast clang could not finish parsing
    operand = children[-1]
    before = unit.width_of(operand)
    if before.integer or (before.kind == "pointer" and _points_to_bytes(unit, operand.type)):
        if to.is_volatile_qualified() and into.integer and into.grows:
            _report_register(unit, cast, parent, into)
        return
    held = pointee(unit, operand.type)
    if held is None or _carved(unit, operand):
        return
    object_ = unit.width(held)
    if object_.kind not in SCALAR or not differs_only_on_target(object_, into):
        return
    _report_object(unit, cast, parent, object_, into, constant=to.is_const_qualified())


def pointee(unit: Unit, t):
    """What a pointer type points to, seen through its typedefs (so that a
    `uint32_t *` behind `typedef uint32_t *u32p` keeps its name: its width
    at home comes from the name); the element type of an array."""
    ci = unit.ci
    for _ in range(32):  # a typedef chain this long is a loop in broken code
        kind = t.kind
        if kind == ci.TypeKind.POINTER:
            return t.get_pointee()
        if kind.name in ARRAYS:
            return t.element_type
        if kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
        elif kind == ci.TypeKind.TYPEDEF:
            t = t.get_declaration().underlying_typedef_type
        else:
            canonical = t.get_canonical()
            if canonical == t:
                return None
            t = canonical
    return None


def _carved(unit: Unit, operand) -> bool:
    """`&cols[n]` or `cols + n` of a pointer: an address inside a block of
    memory, where one allocation is carved into arrays of several types
    (sqlite's column names, then their lengths); what lies there is not
    the pointer's pointee type. `&table[i]` of a declared array is an element."""
    node = unit.strip(operand)
    kind = node.kind.name
    if kind == "BINARY_OPERATOR":
        return unit.binary_operator(node) in ("+", "-")
    if kind != "UNARY_OPERATOR" or unit.unary_operator(node) != "&":
        return False
    inner = unit.strip(unit.children(node)[-1])
    if inner.kind.name != "ARRAY_SUBSCRIPT_EXPR":
        return False
    return unit.width_of(unit.strip(unit.children(inner)[0])).kind == "pointer"


def _points_to_bytes(unit: Unit, t) -> bool:
    """A `void *` or a pointer to bytes (`char *`, `uint8_t *`): memory of no
    particular type, such as a device's register window."""
    held = pointee(unit, t)
    if held is None:
        return False
    if held.get_canonical().kind == unit.ci.TypeKind.VOID:
        return True
    width = unit.width(held)
    return width.integer and width.source == width.target == 1


def access(unit: Unit, cast, parent) -> str:
    """What the code does through the cast pointer: "store" (through `*`
    or `[]` on the left of an assignment, or ++/--), "read", "passed" (to a
    function whose parameter may be written through, or kept in a variable:
    the code may store through it later), or "bytes" (converted on to a
    `void *` or `char *`: no access of the cast's width happens)."""
    node, above = cast, parent
    while above is not None and above.kind in (unit.ci.CursorKind.PAREN_EXPR, unit.ci.CursorKind.UNEXPOSED_EXPR):
        if above.kind == unit.ci.CursorKind.UNEXPOSED_EXPR and _points_to_bytes(unit, above.type):
            return "bytes"  # converted on to void * (memset's, fread's): the callee counts bytes itself
        node, above = above, unit.parent(above)  # (const unsigned long *) added for a const parameter
    if above is None:
        return "passed"
    kind = above.kind.name
    if (kind == "UNARY_OPERATOR" and unit.unary_operator(above) == "*") or (
        kind == "ARRAY_SUBSCRIPT_EXPR" and _same(next(iter(unit.children(above)), above), node)
    ):
        return "store" if _stored_into(unit, above) else "read"
    if kind == "CALL_EXPR":
        return "passed" if _may_store(unit, above, node) else "read"
    return "passed"


def _stored_into(unit: Unit, lvalue) -> bool:
    node, above = lvalue, unit.parent(lvalue)
    while above is not None and above.kind == unit.ci.CursorKind.PAREN_EXPR:
        node, above = above, unit.parent(above)
    if above is None:
        return False
    kind = above.kind.name
    if kind in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR"):
        return unit.binary_operator(above) in STORES and _same(unit.children(above)[0], node)
    if kind == "UNARY_OPERATOR":
        return unit.unary_operator(above) in ("++", "--")
    return False


def _may_store(unit: Unit, call, argument) -> bool:
    """The callee's parameter at argument's place is a pointer to something
    not const; a call through a pointer or a variadic argument may store too
    (sscanf's %lu)."""
    function = unit.callee(call)
    if function is None:
        return True
    arguments = unit.arguments(call)
    index = next((i for i, a in enumerate(arguments) if _same(unit.strip(a), unit.strip(argument))), None)
    parameters = list(function.type.argument_types()) if function.type.kind.name == "FUNCTIONPROTO" else []
    if index is None or index >= len(parameters):
        return True
    held = pointee(unit, parameters[index])
    return held is None or not held.is_const_qualified()


def _same(a, b) -> bool:
    return a.kind == b.kind and a.extent == b.extent


def _report_object(unit: Unit, cast, parent, object_: Width, into: Width, constant: bool) -> None:
    pair = unit.pair
    what = "read" if constant else access(unit, cast, parent)
    if what == "bytes":
        return
    target, wider = pair.target.label, into.target > object_.target
    if wider and what != "read":
        effect = (
            f"a store through it writes {into.target} bytes into the {object_.target}-byte object on {target}, "
            "overwriting what lies next to it"
        )
    elif wider:
        effect = f"a read through it takes {into.target - object_.target} bytes past the object on {target}"
    elif what == "read":
        effect = f"a read through it sees {into.target} of the object's {object_.target} bytes on {target}"
    else:
        effect = f"a store through it sets {into.target} of the object's {object_.target} bytes on {target}"
    message = f"pointer to {object_.describe(pair)} cast to pointer to {into.describe(pair)}: {effect}"
    fix = (
        f"Pass a pointer to the object's own type ('{_pointer_to(object_.spelling)}'), or declare the object "
        f"as '{_bare(into.spelling)}' if that is what the code reads and writes."
    )
    unit.report(RULE if wider and what != "read" else WARNING, cast, message, fix=fix, anchor=cast)


def _pointer_to(spelling: str) -> str:
    """'void *' -> 'void **', 'uint32_t' -> 'uint32_t *': as C writes a pointer to that type."""
    bare = _bare(spelling)
    return f"{bare}*" if bare.endswith("*") else f"{bare} *"


def _bare(spelling: str) -> str:
    """'const volatile unsigned long' -> 'unsigned long': the type a declaration would name."""
    words = [w for w in spelling.split() if w not in ("const", "volatile")]
    return " ".join(words)


def _report_register(unit: Unit, cast, parent, into: Width) -> None:
    pair = unit.pair
    what = access(unit, cast, parent)
    if what == "bytes":
        return
    verb = {"read": "read", "store": "write"}.get(what, "access")
    message = (
        f"volatile access through a pointer to {into.describe(pair)} made from an address: a device register "
        f"{verb} of {into.source} bytes on {pair.source.label} becomes {into.target} bytes on {pair.target.label}; "
        f"say uint32_t for a 32-bit register"
    )
    # a pointer kept for later says nothing yet about the access: a warning until a store is seen
    fix = "Access a 32-bit register through 'volatile uint32_t *', as its width is meant in every model."
    unit.report(RULE if what == "store" else WARNING, cast, message, fix=fix, anchor=cast)


CHECK = Check(RULE, nodes=dict.fromkeys(CASTS, on_cast), pointer_casts=True)
