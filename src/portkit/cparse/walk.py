"""One walk over a translation unit's declarations, done in C
(portkit._clangwalk, native/cparse/walk_module.c): Python meets only the nodes
asked for, and can ask any walked node for its parent.

    found = walk(ci, tu, tops, kinds={...}, operators={...}, conversions={...})
    for tag, node, parent, operator in found.selected: ...
    found.parent(node)

kinds: CXCursorKind numbers wanted; operators: the binary and compound
operators wanted of those two kinds (by spelling; None: all); conversions:
result type kind -> value type kinds (canonical CXTypeKind numbers) of the
implicit conversions wanted, whose values come back tagged CONVERSION with
the conversion as their parent.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from portkit import _clangwalk
from portkit.cparse.libclang import BINARY_OPERATOR_KINDS, binary_operator_spellings

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
    found = _clangwalk.children(ci.conf.lib._name, bytes(cursor))
    size = _clangwalk.CURSOR_BYTES
    tu = cursor._tu
    out = []
    for offset in range(0, len(found), size):
        child = ci.Cursor.from_buffer_copy(found, offset)
        child._tu = tu
        out.append(child)
    return out


def walk(
    ci,
    tu,
    tops: Iterable,
    kinds: Iterable[int],
    operators: Iterable[str] | None = None,
    conversions: Mapping[int, Iterable[int]] | None = None,
) -> Walked:
    size = _clangwalk.CURSOR_BYTES
    assert ctypes.sizeof(ci.Cursor) == size, "libclang's CXCursor is not the walk's"
    wanted_kinds = bytearray(_clangwalk.KINDS)
    for kind in kinds:
        wanted_kinds[kind] = 1
    wanted_operators = bytearray(_clangwalk.OPERATORS)
    spellings = binary_operator_spellings(ci)
    for number in BINARY_OPERATOR_KINDS:
        wanted_operators[number] = operators is None or spellings[number] in operators
    table = bytearray(_clangwalk.CONVERSIONS * _clangwalk.CONVERSIONS)
    for result, values in (conversions or {}).items():
        for value in values:
            table[result * _clangwalk.CONVERSIONS + value] = 1
    native = _clangwalk.walk(
        ci.conf.lib._name, bytes(tu.cursor), b"".join(bytes(t) for t in tops), wanted_kinds, wanted_operators, table
    )
    found = Walked(ci, tu, native)
    nodes, parents, tags, kinds_of_operators = native.selected()
    found.selected = [
        (tag, found._cursor(nodes, i * size), found._cursor(parents, i * size), spellings[kinds_of_operators[i]])
        for i, tag in enumerate(tags)
    ]
    return found
