"""One walk over a translation unit's declarations, done in C
(portkit._clangwalk, native/cparse/walk_module.c): Python meets only the nodes
asked for, and can ask any walked node for its parent.

    found = walk(ci, tu, tops, kinds={...}, operators={...}, conversions={...}, callees=({...}, True))
    for tag, node, parent, operator in found.selected: ...
    found.parent(node)

kinds: CXCursorKind numbers wanted; operators: the binary and compound
operators wanted of those two kinds (by spelling; None: all); conversions:
result type kind -> value type kinds (canonical CXTypeKind numbers) of the
implicit conversions wanted, whose values come back tagged CONVERSION with
the conversion as their parent; callees: (names, variadic) when only the
calls of functions of those names, or of variadic functions, are wanted
(None: every call of the kinds); constants: (kinds, values) as
folded_children() takes them, and the operators of `by_constant` are wanted
only where an operand is such a constant (below: or an operand's operand),
as are the nodes of the kinds in `kinds_by_constant`; pointer_casts: the
cast kinds wanted only where a pointer is made or unmade (the cast's type,
or its operand's through implicit conversions, parentheses and other casts);
literals: whether the conversions of an integer literal as written are
wanted (most of a unit's: `p = 0`, `n = 1`).
"""

from __future__ import annotations

import array
import ctypes
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from portkit import _clangwalk
from portkit.cparse.libclang import BINARY_OPERATOR_KINDS, binary_operator_spellings

KINDS = _clangwalk.KINDS  # the length of a table of kinds (kind_table)
KIND = _clangwalk.TAG_KIND
CONVERSION = _clangwalk.TAG_CONVERSION


@dataclass
class Walked:
    ci: object
    tu: object
    native: object  # the _clangwalk.Walk
    # (tag, node, its parent, its operator: a binary or compound operator's spelling, else "")
    selected: list[tuple[int, object, object, str]] = field(default_factory=list)

    def parent(self, cursor):
        """The walked node's parent (the translation unit's cursor above a top-level declaration), or None."""
        found = self.native.parent(bytes(cursor))
        return None if found is None else self._cursor(found, 0)

    def _cursor(self, data: bytes, offset: int):
        cursor = self.ci.Cursor.from_buffer_copy(data, offset)
        cursor._tu = self.tu  # the bindings expect it on every cursor they are given
        return cursor


def children(ci, cursor) -> list:
    """A node's children, as cursor.get_children() gives them, found in C."""
    return _cursors(ci, _clangwalk.children(ci.conf.lib._name, bytes(cursor)), cursor._tu)


def own_tops(ci, tu) -> list:
    """The top-level declarations of the project's own files: not the
    preprocessor's record, not a system header's, not clang's builtins (no
    file), chosen in C (a unit has thousands of the system's)."""
    return _cursors(ci, _clangwalk.own_tops(ci.conf.lib._name, bytes(tu.cursor)), tu)


def tops_of_kind(ci, tu, kind: int) -> list:
    """The translation unit's top-level declarations of one CXCursorKind, system headers' too."""
    return _cursors(ci, _clangwalk.tops_of_kind(ci.conf.lib._name, bytes(tu.cursor), kind), tu)


def kind_table(kinds: Iterable[int]) -> bytes:
    """CXCursorKind numbers as the walk's table of wanted kinds (made once, for preorder())."""
    table = bytearray(_clangwalk.KINDS)
    for kind in kinds:
        table[kind] = 1
    return bytes(table)


def preorder(ci, cursor, kinds: bytes) -> list:
    """The node and the nodes below it whose kinds a kind_table() holds, in
    the order cursor.walk_preorder() gives them, found in C."""
    return _cursors(ci, _clangwalk.preorder(ci.conf.lib._name, bytes(cursor), kinds), cursor._tu)


def strip(ci, cursor):
    """The expression under implicit conversions and parentheses; an implicit
    node wider than its child (va_arg, which libclang shows the same way) stays."""
    data = bytes(cursor)
    found = _clangwalk.strip(ci.conf.lib._name, data)
    if found == data:
        return cursor
    stripped = ci.Cursor.from_buffer_copy(found)
    stripped._tu = cursor._tu
    return stripped


def extents(ci, cursors: list) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    """(file, (line, column) of the start, of the end) of each cursor, as
    their expansions are; the file as libclang's handle, for comparing."""
    found = array.array("Q", _clangwalk.extents(ci.conf.lib._name, b"".join(map(bytes, cursors))))
    return [(found[i], (found[i + 1], found[i + 2]), (found[i + 3], found[i + 4])) for i in range(0, len(found), 5)]


def expression_at(ci, top, span: tuple[tuple[int, int], tuple[int, int]]):
    """The innermost node below top whose extent is exactly span ((line,
    column) of its start and its end, as their expansions are), found in C
    going down through the nodes whose extents hold it; None: none is."""
    (first_line, first_column), (last_line, last_column) = span
    library = ci.conf.lib._name
    found = _clangwalk.expression_at(library, bytes(top), first_line, first_column, last_line, last_column)
    if found is None:
        return None
    node = ci.Cursor.from_buffer_copy(found)
    node._tu = top._tu
    return node


def folded_children(ci, cursor, kinds: bytes, values: tuple[int, ...]) -> bytes:
    """One byte per child of the node: 1 where the child, under implicit
    conversions and parentheses (as strip()), is of a kind a kind_table()
    holds and clang folds it to one of values; one call into C instead of the
    children, their stripping and their folding asked one by one."""
    return _clangwalk.folded_children(ci.conf.lib._name, bytes(cursor), kinds, values)


def callee(ci, call):
    """The function a call expression calls (FUNCTION_DECL), or None (a call through a pointer)."""
    found = _clangwalk.callee(ci.conf.lib._name, bytes(call))
    if found is None:
        return None
    function = ci.Cursor.from_buffer_copy(found)
    function._tu = call._tu
    return function


def arguments(ci, call) -> list:
    """A call's arguments, as call.get_arguments() gives them, found in C."""
    return _cursors(ci, _clangwalk.arguments(ci.conf.lib._name, bytes(call)), call._tu)


def cursor_type(ci, cursor):
    """cursor.type, without the bindings' search of the call's arguments for the translation unit."""
    found = ci.Type.from_buffer_copy(_clangwalk.cursor_type(ci.conf.lib._name, bytes(cursor)))
    found._tu = cursor._tu
    return found


def _cursors(ci, found: bytes, tu) -> list:
    """CXCursors one after another as cursor objects, a copy each (a node's few children)."""
    size = _clangwalk.CURSOR_BYTES
    out = []
    for offset in range(0, len(found), size):
        cursor = ci.Cursor.from_buffer_copy(found, offset)
        cursor._tu = tu
        out.append(cursor)
    return out


def _many_cursors(ci, found: bytes, tu) -> list:
    """The same for a walk's thousands: one array of them all, whose items
    are views into it (half the cost of a copy each)."""
    if not found:
        return []
    out = list((ci.Cursor * (len(found) // _clangwalk.CURSOR_BYTES)).from_buffer_copy(found))
    for cursor in out:
        cursor._tu = tu
    return out


def walk(
    ci,
    tu,
    tops: Iterable,
    kinds: Iterable[int],
    operators: Iterable[str] | None = None,
    conversions: Mapping[int, Iterable[int]] | None = None,
    callees: tuple[Iterable[str], bool] | None = None,
    constants: tuple[bytes, tuple[int, ...], bool] | None = None,
    by_constant: Iterable[str] = (),
    kinds_by_constant: Iterable[int] = (),
    pointer_casts: Iterable[int] | None = None,
    literals: bool = True,
) -> Walked:
    size = _clangwalk.CURSOR_BYTES
    assert ctypes.sizeof(ci.Cursor) == size, "libclang's CXCursor is not the walk's"
    assert ctypes.sizeof(ci.Type) == _clangwalk.TYPE_BYTES, "libclang's CXType is not the walk's"
    wanted_kinds = bytearray(_clangwalk.KINDS)
    for kind in kinds:
        wanted_kinds[kind] = 1
    for kind in kinds_by_constant if constants is not None else ():
        wanted_kinds[kind] = wanted_kinds[kind] or 2
    wanted_operators = bytearray(_clangwalk.OPERATORS)
    spellings = binary_operator_spellings(ci)
    with_constant = frozenset(by_constant) if constants is not None else frozenset()
    for number in BINARY_OPERATOR_KINDS:
        if operators is None or spellings[number] in operators:
            wanted_operators[number] = 1
        elif spellings[number] in with_constant:
            wanted_operators[number] = 2
    table = bytearray(_clangwalk.CONVERSIONS * _clangwalk.CONVERSIONS)
    for result, values in (conversions or {}).items():
        for value in values:
            table[result * _clangwalk.CONVERSIONS + value] = 1
    calls = None if callees is None else (tuple(callees[0]), callees[1])
    native = _clangwalk.walk(
        ci.conf.lib._name,
        bytes(tu.cursor),
        b"".join(bytes(t) for t in tops),
        wanted_kinds,
        wanted_operators,
        table,
        calls,
        constants,
        None if pointer_casts is None else kind_table(pointer_casts),
        literals,
    )
    found = Walked(ci, tu, native)
    nodes, parents, tags, kinds_of_operators = native.selected()
    found.selected = list(
        zip(
            tags,
            _many_cursors(ci, nodes, tu),
            _many_cursors(ci, parents, tu),
            [spellings[k] for k in kinds_of_operators],
            strict=True,
        )
    )
    return found
