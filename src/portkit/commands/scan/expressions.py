"""What several rules ask of an expression or a diagnostic: is it a va_arg, a
call through an implicit declaration, a time_t, a narrowing clang reported?
Rules share these; no rule file imports another."""

from __future__ import annotations

from portkit.commands.scan.messages import quoted_types
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import Width, loses_bits_only_on_target

CASTS = ("CSTYLE_CAST_EXPR", "CXX_REINTERPRET_CAST_EXPR", "CXX_STATIC_CAST_EXPR", "CXX_FUNCTIONAL_CAST_EXPR")
TIME_TYPEDEFS = frozenset({"time_t", "__time_t", "__time64_t"})
NARROWING = "implicit conversion loses integer precision"


def is_va_arg(unit: Unit, cursor) -> bool:
    """A va_arg(ap, T) expression. libclang shows it as an unexposed
    expression (and, made by a macro, without tokens) whose one child is the
    va_list; its own type is T, which no conversion of a va_list can be."""
    if cursor.kind != unit.ci.CursorKind.UNEXPOSED_EXPR:
        return False
    children = unit.children(cursor)
    if len(children) != 1 or not _is_va_list(children[0].type):
        return False
    own = cursor.type
    return not _is_va_list(own) and "__va_list_tag" not in own.get_canonical().spelling


def _is_va_list(t) -> bool:
    return "va_list" in t.spelling or "va_list" in t.get_canonical().spelling


def is_implicit_call(unit: Unit, node) -> bool:
    """A call to a function clang declared on the spot (at the call itself)."""
    node = unit.strip(node)
    if node.kind != unit.ci.CursorKind.CALL_EXPR:
        return False
    callee = node.referenced
    if callee is None:
        return False
    here, there = node.location, callee.location
    return (here.line, here.column) == (there.line, there.column) and here.file == there.file


def is_time(unit: Unit, spelling: str) -> bool:
    """time_t, directly or through the project's own typedefs of it."""
    return any(name in TIME_TYPEDEFS for name in unit.typedef_chain(spelling))


def narrowing(unit: Unit, diag) -> tuple[Width, Width] | None:
    """clang's -Wshorten-64-to-32 (it knows value ranges: x & 0xff fits anywhere)
    for the target, kept where the conversion was whole at home."""
    types = quoted_types(diag.spelling)
    if not diag.spelling.startswith(NARROWING) or len(types) < 2:
        return None
    before, after = (unit.width_named(*t) for t in types[:2])
    return (before, after) if loses_bits_only_on_target(before, after) else None
