"""What a value can be, from the expression that computes it: the questions
that tell a real narrowing from a round trip that changes nothing.

- low_bits_kept: `int n; (int)(n * sizeof(x))` goes through 64 bits on LP64
  and comes back to 32; every operation on the way (+ - * << & | ^) gives the
  same low 32 bits whatever the upper half holds, and the values that went in
  were 32-bit ones, so both models end with the same int.
- narrowed_back: the other direction, the 64-bit result of a widened int
  that is converted straight back to 32 bits.
- low_bits_only: a value only whose low bits are used (`(uint32_t)(size_t)p & 3`).
- value_range: the interval an integer expression stays in, from its
  operands' types and constants (`b[0] * 256 + b[1]` of bytes stays below 2^17,
  `read(fd, buf, 512)` returns -1 to 512).

Each is asked of the target parse; a 32-bit value is one whose type has 4
bytes or fewer on the target. Rules share these; no rule file imports another.
"""

from __future__ import annotations

from portkit.commands.scan.guards import bound_by, guarded
from portkit.commands.scan.unit import Unit, identity

# CXCursorKind numbers: asked of every node on a path up or down, where a
# kind's name costs a lookup.
UNEXPOSED_EXPR = 100  # an implicit conversion, among other things
DECL_REF_EXPR = 101
MEMBER_REF_EXPR = 102
PAREN_EXPR = 111
UNARY_OPERATOR = 112
BINARY_OPERATOR = 114
CONDITIONAL_OPERATOR = 116
CSTYLE_CAST_EXPR = 117
CALL_EXPR = 103
CASTS = frozenset({CSTYLE_CAST_EXPR, 124, 125, 128})  # C, C++ static, reinterpret and functional casts
FIELD_DECL = 6
VAR_DECL = 9
FUNCTION_DECL = 8
COMPOUND_ASSIGNMENT = 115
# Operations whose low N bits depend only on the low N bits of their operands.
RING_OPERATORS = frozenset({"+", "-", "*", "&", "|", "^"})
RING_UNARY = frozenset({"-", "~", "+"})
# C library functions whose result is bounded by an argument: (its index, the least result).
RESULT_BOUNDS = {
    **dict.fromkeys(("fread", "fwrite", "fread_unlocked", "fwrite_unlocked"), (2, 0)),
    **dict.fromkeys(("read", "write", "pread", "pwrite", "pread64", "pwrite64", "recv", "send"), (2, -1)),
    **dict.fromkeys(("recvfrom", "sendto", "readlink"), (2, -1)),
    "strnlen": (1, 0),
}


# zlib's checksums: uLong results that zlib documents as 32-bit values.
ZLIB_CHECKSUMS = frozenset(
    {"crc32", "crc32_z", "crc32_combine", "crc32_combine64", "adler32", "adler32_z", "adler32_combine"}
)


def low_bits_kept(unit: Unit, node, bits: int = 32) -> bool:
    """The low `bits` bits of node's value are the same in both models: it is
    built with + - * << & | ^ (and ~, unary -, casts, ?:) from values of at
    most `bits` bits and constants only. A narrowing of it to `bits` bits
    drops nothing the source model had."""
    return _kept(unit, node, bits // 8, depth=0)


def _kept(unit: Unit, node, size: int, depth: int) -> bool:
    if depth > 64:
        return False
    width = unit.width_of(node)
    if width.integer and width.target is not None and width.target <= size:
        return True  # a value of that width already: computed alike in both models
    constant = unit.value(node)
    if constant is not None:
        # a constant of that width; a wider one (SIZE_MAX / 2, ~0UL) is another number at home
        return -(1 << (8 * size - 1)) <= constant < (1 << (8 * size))
    kind = node._kind_id
    children = unit.children(node)
    if kind in (PAREN_EXPR, UNEXPOSED_EXPR) or kind in CASTS:
        operands = [c for c in children if c.kind.is_expression()]
        return len(operands) == 1 and _integer(unit, operands[0]) and _kept(unit, operands[0], size, depth + 1)
    if kind == UNARY_OPERATOR:
        return unit.unary_operator(node) in RING_UNARY and _kept(unit, children[0], size, depth + 1)
    if kind == BINARY_OPERATOR and len(children) == 2:
        operator = unit.binary_operator(node)
        left, right = children
        if operator in RING_OPERATORS:
            return _kept(unit, left, size, depth + 1) and _kept(unit, right, size, depth + 1)
        if operator == "<<":  # the low bits of x << n come from the low bits of x
            return _kept(unit, left, size, depth + 1) and _kept(unit, right, size, depth + 1)
        if operator == ",":
            return _kept(unit, right, size, depth + 1)
        return False
    if kind == CONDITIONAL_OPERATOR and len(children) == 3:
        return all(_kept(unit, c, size, depth + 1) for c in children[1:])
    if kind == DECL_REF_EXPR:
        return _variable_kept(unit, node, size, depth)
    return False


def _local_variable(reference, depth: int):
    """The variable a reference names, when it is local to a function (a
    global may be written by any function) and the search is not too deep."""
    variable = reference.referenced
    if variable is None or variable.kind.value != VAR_DECL or depth > 8:
        return None
    function = variable.semantic_parent
    if function is None or function.kind.value != FUNCTION_DECL:
        return None
    return variable


def _variable_kept(unit: Unit, reference, size: int, depth: int) -> bool:
    """A local variable every value of which (its initialiser, each
    assignment in its function, nothing else writing it) keeps its low bits:
    `size_t n = int_length(s); ... f(n)` into an int is the int again."""
    variable = _local_variable(reference, depth)
    if variable is None:
        return False
    key = ("variable kept", size, *identity(variable))
    if key not in unit.notes:
        unit.notes[key] = False  # while it is worked out (n = n * 2): not known
        values = [c for c in unit.children(variable) if c.kind.is_expression()]
        writes = _writes(unit, variable.semantic_parent, variable)
        unit.notes[key] = (
            writes is not None
            and bool(values or writes)
            and all(_kept(unit, v, size, depth + 1) for v in (*values[-1:], *writes))
        )
    return unit.notes[key]


def _integer(unit: Unit, node) -> bool:
    return unit.width_of(node).integer


def narrowed_back(unit: Unit, node, bits: int = 32) -> bool:
    """node's value (a widened 32-bit value, say) reaches a conversion to at
    most `bits` bits through operations that keep low bits only (+ - * << &
    | ^, parentheses, casts that widen): whatever the upper half held is
    dropped again."""
    size = bits // 8
    current = node
    for _ in range(64):
        above = unit.parent(current)
        if above is None:
            return False
        kind = above._kind_id
        width = unit.width_of(above)
        if (kind == UNEXPOSED_EXPR or kind in CASTS) and width.integer and width.target is not None:
            if width.target <= size:
                return True  # converted back to 32 bits
        elif not _keeps_low_bits(unit, above, current):
            return False
        current = above
    return False


def _keeps_low_bits(unit: Unit, above, below) -> bool:
    """`above` computes its low bits from the low bits of its operand `below`."""
    kind = above._kind_id
    if kind == PAREN_EXPR:
        return True
    if kind == UNARY_OPERATOR:
        return unit.unary_operator(above) in RING_UNARY
    if kind == BINARY_OPERATOR:
        operator = unit.binary_operator(above)
        return operator in RING_OPERATORS or (operator == "<<" and _is_first(unit, above, below))
    return kind == CONDITIONAL_OPERATOR and not _is_first(unit, above, below)  # a branch, not the condition


def consumer(unit: Unit, node):
    """What takes node's value, above its parentheses, implicit conversions and
    the ?: it is a branch of: the assignment, declaration, call or return it
    goes into (None at the top)."""
    current, above = node, unit.parent(node)
    while above is not None and (
        above._kind_id in (PAREN_EXPR, UNEXPOSED_EXPR)
        or (above._kind_id == CONDITIONAL_OPERATOR and not _is_first(unit, above, current))
    ):
        current, above = above, unit.parent(above)
    return above


def _is_first(unit: Unit, parent, child) -> bool:
    children = unit.children(parent)
    return bool(children) and _same(children[0], child)


def _same(a, b) -> bool:
    return a._kind_id == b._kind_id and a.data[1] == b.data[1] and a.xdata == b.xdata


def low_bits_only(unit: Unit, node, bits: int = 32) -> bool:
    """Only the low bits of node's value are used: it is masked with a
    constant of at most `bits` bits (`& 3`, `& 0xfff`) or taken modulo a
    power of two no larger, through parentheses and casts between them."""
    current = node
    for _ in range(16):
        above = unit.parent(current)
        if above is None:
            return False
        kind = above._kind_id
        if kind in (PAREN_EXPR, UNEXPOSED_EXPR) or kind in CASTS:
            current = above
            continue
        if kind != BINARY_OPERATOR:
            return False
        operator = unit.binary_operator(above)
        others = [c for c in unit.children(above) if not _same(c, current)]
        if len(others) != 1:
            return False
        constant = unit.value(others[0])
        if constant is None or constant < 0:
            return False
        if operator in ("&", "&="):
            return constant < 1 << bits
        if operator in ("%", "%=") and _is_first(unit, above, current):
            return 0 < constant <= 1 << bits and constant & (constant - 1) == 0
        return False
    return False


def value_range(unit: Unit, node, depth: int = 0) -> tuple[int, int] | None:
    """The least and greatest value an integer expression can have, from its
    operands (as written: without the wrap-around of the type it is computed
    in, so that `a * b` of two ints can exceed an int), at most its own
    type's range; None for what is no integer."""
    constant = unit.value(node)
    if constant is not None:
        return constant, constant
    width = unit.width_of(node)
    if not width.integer or width.target is None or depth > 32:
        return None
    own = _type_range(width.kind, width.target)
    kind = node._kind_id
    if kind == CALL_EXPR:
        return _within(_result_range(unit, node, depth), own)
    children = [c for c in unit.children(node) if c.kind.is_expression()]
    if kind in (PAREN_EXPR, UNEXPOSED_EXPR) or kind in CASTS:
        # a conversion: the value itself where it fits, else the type wraps it
        return _within(value_range(unit, children[0], depth + 1) if len(children) == 1 else None, own)
    if kind == MEMBER_REF_EXPR:
        return _narrowed(_bitfield_range(unit, node, width.kind) or own, guarded(unit, node))
    if kind == DECL_REF_EXPR:
        return _narrowed(_within(_variable_range(unit, node, depth), own), guarded(unit, node))
    if kind == BINARY_OPERATOR and len(children) == 2:
        return _binary_range(unit, unit.binary_operator(node), children, depth) or own
    if kind == CONDITIONAL_OPERATOR and len(children) == 3:
        condition, *branches = children
        ranges = []
        for taken, branch in zip((True, False), branches, strict=True):
            found = value_range(unit, branch, depth + 1)
            # len > INT_MAX ? INT_MAX : len: the branch that is the compared value is bounded by the comparison
            ranges.append(_narrowed(found, bound_by(unit, condition, branch, holds=taken)) if found else None)
        if all(r is not None for r in ranges):
            return min(r[0] for r in ranges), max(r[1] for r in ranges)  # type: ignore[index]
    return own


def _narrowed(found: tuple[int, int] | None, bounds: tuple[int | None, int | None] | None) -> tuple[int, int] | None:
    """found within what a comparison allows (bounds: least and greatest, None: no bound there)."""
    if found is None or bounds is None:
        return found
    low = max(found[0], bounds[0]) if bounds[0] is not None else found[0]
    high = min(found[1], bounds[1]) if bounds[1] is not None else found[1]
    return (low, high) if low <= high else found


def _variable_range(unit: Unit, reference, depth: int) -> tuple[int, int] | None:
    """A local variable's values: those of its initialiser and of every
    assignment to it in its function (`unsigned long size = hdr.size32;`),
    when nothing else writes it (++, +=, its address taken)."""
    variable = _local_variable(reference, depth)
    if variable is None:
        return None
    key = ("variable range", *identity(variable))
    if key in unit.notes:
        return unit.notes[key]
    unit.notes[key] = None  # while it is worked out (x = x + 1): unknown
    values = [c for c in unit.children(variable) if c.kind.is_expression()]
    writes = _writes(unit, variable.semantic_parent, variable)
    found: tuple[int, int] | None = None
    if writes is not None and (values or writes):
        ranges = [value_range(unit, v, depth + 1) for v in (*values[-1:], *writes)]
        if all(r is not None for r in ranges):
            found = (min(r[0] for r in ranges), max(r[1] for r in ranges))  # type: ignore[index]
    unit.notes[key] = found
    return found


def _writes(unit: Unit, function, variable) -> list | None:
    """The values assigned to a variable in its function, or None when it is
    also written another way (++, a compound assignment, &variable)."""
    return _function_writes(unit, function).get(identity(variable), [])


def _function_writes(unit: Unit, function) -> dict[tuple, list | None]:
    """Every local variable a function writes: its identity -> the values
    assigned to it, or None where it is written another way. One pass over
    the function (in libclang's visitor, asking only about operators) for
    all its variables."""
    key = ("writes", *identity(function))
    if key in unit.notes:
        return unit.notes[key]
    writes: dict[tuple, list | None] = {}
    operators = []

    def visit(cursor, _parent, _data) -> int:
        if cursor._kind_id in (BINARY_OPERATOR, COMPOUND_ASSIGNMENT, UNARY_OPERATOR):
            cursor._tu = unit.tu
            operators.append(cursor)
        return 2  # CXChildVisit_Recurse

    unit.ci.conf.lib.clang_visitChildren(function, unit.ci.callbacks["cursor_visit"](visit), None)
    for node in operators:
        kind = node._kind_id
        if kind == BINARY_OPERATOR and unit.binary_operator(node) != "=":
            continue
        if kind == UNARY_OPERATOR and unit.unary_operator(node) not in ("++", "--", "&"):
            continue
        children = unit.children(node)
        target = _variable_named(unit, children[0]) if children else None
        if target is None:
            continue
        if kind == BINARY_OPERATOR and len(children) == 2:
            known = writes.setdefault(target, [])
            if known is not None:
                known.append(children[1])
        else:
            writes[target] = None
    unit.notes[key] = writes
    return writes


def _variable_named(unit: Unit, node) -> tuple | None:
    node = unit.strip(node)
    if node._kind_id != DECL_REF_EXPR:
        return None
    referenced = node.referenced
    return identity(referenced) if referenced is not None else None


def _within(found: tuple[int, int] | None, own: tuple[int, int]) -> tuple[int, int]:
    return found if found is not None and own[0] <= found[0] and found[1] <= own[1] else own


def _result_range(unit: Unit, call, depth: int) -> tuple[int, int] | None:
    """fread(buf, 1, n, f) returns 0..n, read(fd, buf, n) -1..n: the C library's own functions only."""
    callee = unit.callee(call)
    if callee is None or not callee.location.is_in_system_header:
        return None
    if callee.spelling == "strlen":
        return _array_length(unit, call)
    if callee.spelling in ZLIB_CHECKSUMS and callee.location.file.name.endswith("/zlib.h"):
        return 0, 0xFFFFFFFF  # a CRC-32 or Adler-32 in zlib's uLong: 32 bits in every data model
    if callee.spelling not in RESULT_BOUNDS:
        return None
    index, least = RESULT_BOUNDS[callee.spelling]
    arguments = unit.arguments(call)
    # the count as the caller wrote it, before it became a size_t: an int
    # count asks for at most INT_MAX bytes (a negative one is an error, not 4 GiB)
    bound = value_range(unit, unit.strip(arguments[index]), depth + 1) if index < len(arguments) else None
    return (least, max(bound[1], 0)) if bound is not None else None


def _array_length(unit: Unit, call) -> tuple[int, int] | None:
    """strlen(buf) of an array of N chars (`char buf[200]; snprintf(buf, ...);
    len = strlen(buf);`) is 0..N-1; of anything else, not known."""
    arguments = unit.arguments(call)
    if not arguments:
        return None
    array = unit.strip(arguments[0])
    if array._kind_id not in (DECL_REF_EXPR, MEMBER_REF_EXPR):
        return None
    size = array.type.get_array_size()  # -1: a pointer, or an array of unknown size
    return (0, size - 1) if size > 0 else None


def _binary_range(unit: Unit, operator: str, operands: list, depth: int) -> tuple[int, int] | None:
    left, right = (value_range(unit, o, depth + 1) for o in operands)
    if left is None or right is None:
        return None
    if operator == "&" and (left[0] >= 0 or right[0] >= 0):  # a mask bounds the result whatever the other side is
        return 0, min(r[1] for r in (left, right) if r[0] >= 0)
    if operator in ("+", "-", "*"):
        if operator == "+":
            return left[0] + right[0], left[1] + right[1]
        if operator == "-":
            return left[0] - right[1], left[1] - right[0]
        products = [a * b for a in left for b in right]
        return min(products), max(products)
    if operator == "<<" and right[0] >= 0 and right[1] < 64:
        return min(left[0] << right[0], left[0] << right[1]), max(left[1] << right[0], left[1] << right[1])
    if operator == ">>" and right[0] >= 0 and left[0] >= 0:
        return left[0] >> right[1], left[1] >> right[0]
    if operator in ("|", "^") and left[0] >= 0 and right[0] >= 0:
        return 0, (1 << max(left[1], right[1]).bit_length()) - 1
    if operator == "/" and right[0] > 0:
        return min(left[0] // right[0], left[0] // right[1], 0), max(left[1] // right[0], 0)
    if operator == "%" and right[0] == right[1] and right[0] != 0:
        limit = abs(right[0]) - 1
        return (0 if left[0] >= 0 else -limit), limit
    return None


def _bitfield_range(unit: Unit, member, kind: str) -> tuple[int, int] | None:
    field = member.referenced
    if field is None or field.kind.value != FIELD_DECL or not field.is_bitfield():
        return None
    bits = field.get_bitfield_width()
    return (0, (1 << bits) - 1) if kind == "unsigned" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def _type_range(kind: str, size: int) -> tuple[int, int]:
    bits = 8 * size
    return (0, (1 << bits) - 1) if kind == "unsigned" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def fits(bounds: tuple[int, int] | None, kind: str, size: int) -> bool:
    """bounds lie within the values of an integer type of that kind and size."""
    if bounds is None:
        return False
    low, high = _type_range(kind, size)
    return low <= bounds[0] and bounds[1] <= high
