"""The file's own variadic functions against their callers: what each va_arg
reads, and what the calls in the same file pass at that position. PK702 and
PK703 both ask. Calls to the project's variadic functions are noted during the
walk (note_call); the rest is worked out once per unit, and only when the
file defines a variadic function at all."""

from __future__ import annotations

from dataclasses import dataclass, field

from portkit.commands.scan.expressions import is_va_arg
from portkit.commands.scan.guards import LOOPS
from portkit.commands.scan.unit import Unit, identity
from portkit.commands.scan.widths import Width
from portkit.cparse.walk import cursor_type, kind_table, preorder

# What va_arg is to libclang (CXCursor_UnexposedExpr): the only nodes of a body that can be a read.
UNEXPOSED = kind_table((100,))
FUNCTION_DECL = 8  # CXCursor_FunctionDecl
COMPOUND_STMT = 202  # CXCursor_CompoundStmt


@dataclass(frozen=True)
class Read:
    """One va_arg(ap, T) in a variadic function's body."""

    cursor: object
    width: Width
    in_loop: bool  # it reads every argument from its position on


@dataclass
class Variadic:
    reads: dict[str, list[Read]] = field(default_factory=dict)  # function -> its va_arg reads, in order
    passed: list[tuple[Read, object]] = field(default_factory=list)  # (the read, an argument it receives)


@dataclass(frozen=True)
class Callee:
    """What the variadic rules ask of a called function, asked once per function."""

    variadic: bool
    system: bool  # declared in a system header
    sentinel: bool  # __attribute__((sentinel)): its list ends with a null pointer


def callee_facts(unit: Unit, function) -> Callee:
    known = unit.notes.setdefault("callee facts", {})
    key = bytes(function)  # a declaration is all of its cursor's words (unit.identity), asked of every call
    facts = known.get(key)
    if facts is None:
        t = function.type
        variadic = t.kind == unit.ci.TypeKind.FUNCTIONPROTO and t.is_function_variadic()
        sentinel = variadic and _declares_sentinel(unit, function)
        facts = known[key] = Callee(variadic, function.location.is_in_system_header, sentinel)
    return facts


def _declares_sentinel(unit: Unit, function) -> bool:
    """__attribute__((sentinel)) among the tokens before the body (a
    definition's body can be thousands of tokens: they are not read, nor
    made: libclang tokenizes the whole range it is given)."""
    for token in _tokens_before_body(unit, function):
        spelling = token.spelling
        if spelling == "{":
            return False
        if "sentinel" in spelling:
            return True
    return False


def _tokens_before_body(unit: Unit, function):
    """The function's tokens as written in its file, up to its body's `{`
    (to its end for a prototype). The range is made of plain file offsets:
    given a cursor's own range, libclang tokenizes from the spelling of a
    macro the declaration starts with (SQLITE_PRIVATE), the whole file from
    that macro's #define on. When the declaration spans files, the cursor's
    tokens as before."""
    extent = function.extent
    body = None
    if function.is_definition():
        body = next((c for c in function.get_children() if c._kind_id == COMPOUND_STMT), None)
    start, end = extent.start, (body.extent.start if body is not None else extent.end)
    if start.file is None or end.file is None or start.file.name != end.file.name or start.offset > end.offset:
        return function.get_tokens()
    tu = function.translation_unit
    place = unit.ci.SourceLocation.from_offset
    span = unit.ci.SourceRange.from_locations(place(tu, start.file, start.offset), place(tu, end.file, end.offset))
    return tu.get_tokens(extent=span)


def note_call(unit: Unit, call, _parent=None) -> tuple[object, Callee] | None:
    """Remembers a call to one of the project's variadic functions (several
    rules note the same call: once). Returns (the callee, its facts), None
    for a call through a pointer: PK703 goes on with them."""
    callee = unit.callee(call)
    if callee is None:
        return None
    facts = callee_facts(unit, callee)
    if facts.variadic and not facts.system:
        calls = unit.notes.setdefault("variadic calls", {})
        calls.setdefault((call.location.line, call.location.column, call.spelling), call)
    return callee, facts


def variadic_use(unit: Unit) -> Variadic:
    if "variadic" not in unit.notes:
        unit.notes["variadic"] = _analyse(unit)
    return unit.notes["variadic"]


def _analyse(unit: Unit) -> Variadic:
    ci = unit.ci
    functions = {}
    for top in unit.tops:  # thousands: the kind by number, the type asked in C, once
        if top._kind_id != FUNCTION_DECL or not top.is_definition():
            continue
        t = cursor_type(ci, top)
        if t.kind == ci.TypeKind.FUNCTIONPROTO and t.is_function_variadic():
            functions[top.spelling] = top
    result = Variadic()
    if not functions:
        return result
    for name, function in functions.items():
        result.reads[name] = _reads(unit, function)
    fixed_of = {}  # a function's fixed parameters, counted once (a function is called hundreds of times)
    for node in unit.notes.get("variadic calls", {}).values():
        if node.spelling in functions:
            if node.spelling not in fixed_of:
                function = functions[node.spelling]
                fixed_of[node.spelling] = sum(1 for c in function.get_children() if c.kind == ci.CursorKind.PARM_DECL)
            fixed = fixed_of[node.spelling]
            reads = result.reads[node.spelling]
            for position, argument in enumerate(unit.arguments(node)[fixed:]):
                read = _read_at(reads, position)
                if read is not None:
                    result.passed.append((read, argument))
    return result


def _reads(unit: Unit, function) -> list[Read]:
    """The va_arg reads below a function, in the order written; each in a
    loop if a loop statement stands between it and the function. The
    candidates come from the C walk of the function, the loops from the
    reads' parents: a body of thousands of nodes asks Python of a few."""
    reads = []
    top = identity(function)
    for node in preorder(unit.ci, function, UNEXPOSED):
        if is_va_arg(unit, node):
            reads.append(Read(node, unit.width_of(node), _in_loop(unit, node, top)))
    return reads


def _in_loop(unit: Unit, node, top: tuple) -> bool:
    above = unit.parent(node)
    while above is not None and identity(above) != top:
        if above._kind_id in LOOPS:
            return True
        above = unit.parent(above)
    return False


def _read_at(reads: list[Read], position: int) -> Read | None:
    """The va_arg that takes the argument at a position: the position-th read,
    or a read in a loop, which takes every argument from its place on."""
    for index, read in enumerate(reads):
        if read.in_loop and index <= position:
            return read
        if index == position:
            return read
    return None
