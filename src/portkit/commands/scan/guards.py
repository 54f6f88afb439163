"""What a comparison tells of a value: `len > INT_MAX ? INT_MAX : len` is at
most INT_MAX, and so is `len` in `if (len < INT_MAX) n = len;` or after
`if (len > INT_MAX) return -1;`. A narrowing the code guards this way drops
nothing; these find the guard for values.value_range and the narrowing rules.

Only plain guards count: a comparison of the value itself with a constant,
or with another variable of a known type (`if (indent < column)` puts column
above INT_MIN when indent is an int), around it or before it in the same
block, with no assignment to the value in between. Every guard on the way up
to the function counts: `if (indent < column) { if (column > INT_MAX) return
0; n = column; }` bounds column on both sides. A value is compared by what
it names (a variable, a member chain), not by how it is spelled.
"""

from __future__ import annotations

from portkit.commands.scan.unit import Unit, identity
from portkit.cparse.walk import kind_table, preorder

PAREN_EXPR = 111
UNEXPOSED_EXPR = 100
DECL_REF_EXPR = 101
MEMBER_REF_EXPR = 102
UNARY_OPERATOR = 112
BINARY_OPERATOR = 114
COMPOUND_ASSIGNMENT = 115
WRITING = kind_table((BINARY_OPERATOR, COMPOUND_ASSIGNMENT, UNARY_OPERATOR))  # the kinds that may write a value
CONDITIONAL_OPERATOR = 116
COMPOUND_STMT = 202
IF_STMT = 205
JUMPS = frozenset({210, 211, 212, 213, 214})  # goto, indirect goto, continue, break, return
FUNCTION_DECL = 8
LOOPS = frozenset({207, 208, 209})  # while, do, for
COMPARISONS = {"<": (None, -1), "<=": (None, 0), ">": (1, None), ">=": (0, None)}  # value OP K: (low +, high +)
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def same_value(unit: Unit, a, b) -> bool:
    """Two expressions that read the same variable or member chain (`buf->size` twice)."""
    a, b = unit.strip(a), unit.strip(b)
    if a._kind_id != b._kind_id or a._kind_id not in (DECL_REF_EXPR, MEMBER_REF_EXPR):
        return False
    left, right = a.referenced, b.referenced
    if left is None or right is None or identity(left) != identity(right):
        return False
    if a._kind_id == DECL_REF_EXPR:
        return True
    bases = [unit.children(a), unit.children(b)]
    if len(bases[0]) != len(bases[1]):
        return False
    return all(same_value(unit, x, y) for x, y in zip(*bases, strict=True))


def bound_by(unit: Unit, condition, value, holds: bool) -> tuple[int | None, int | None] | None:
    """(least, greatest) that `value` has where `condition` is true (holds)
    or false, when the condition compares it with a constant; else None."""
    condition = unit.strip(condition)
    if condition._kind_id != BINARY_OPERATOR:
        return None
    operator = unit.binary_operator(condition)
    if operator not in COMPARISONS and operator not in ("==", "!="):
        return None
    sides = unit.children(condition)
    if len(sides) != 2:
        return None
    for compared, other, op in ((sides[0], sides[1], operator), (sides[1], sides[0], FLIPPED[operator])):
        if unit.value(compared) is not None or not same_value(unit, compared, value):
            continue
        op = op if holds else NEGATED[op]
        k = unit.value(other)
        if k is not None:
            least = greatest = k
        else:
            span = _comparand_range(unit, compared, other)
            if span is None or op not in COMPARISONS:
                return None
            least, greatest = span
        if op == "==":
            return least, greatest
        if op in COMPARISONS:
            low, high = COMPARISONS[op]
            # value > other: above other's least; value < other: below other's greatest
            return (least + low if low is not None else None), (greatest + high if high is not None else None)
        return None
    return None


def _comparand_range(unit: Unit, compared, other) -> tuple[int, int] | None:
    """The values of a comparand that is no constant, by its own type (an
    int: INT_MIN..INT_MAX), where the comparison keeps them: both signed, or
    it cannot be negative (an unsigned value compared with a negative int
    would compare a converted, huge value)."""
    own = unit.width_of(unit.strip(compared))
    theirs = unit.width_of(unit.strip(other))
    if not (own.integer and theirs.integer) or theirs.target is None:
        return None
    bits = 8 * theirs.target
    if theirs.kind == "unsigned":
        return 0, (1 << bits) - 1
    if own.kind != "signed":
        return None
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def guarded(unit: Unit, node) -> tuple[int | None, int | None] | None:
    """The bounds the guards around node, or before it in its blocks, put on
    node's value (an if it is in a branch of; an if before it that leaves
    the block when the value is out of range, or clamps it), all of them
    up to the function; None: none found."""
    bounds: list[tuple[int | None, int | None]] = []
    current, above = node, unit.parent(node)
    for _ in range(64):
        if above is None:
            break
        kind = above._kind_id
        found = None
        if kind == CONDITIONAL_OPERATOR:  # n > K ? K : n
            parts = unit.children(above)
            if len(parts) == 3 and not _is(parts[0], current):
                found = bound_by(unit, parts[0], node, holds=_is(parts[1], current))
        elif kind == IF_STMT:
            parts = unit.children(above)
            # the branch must not change the value before it is used (it may, anywhere in it: no bound)
            if len(parts) >= 2 and not _is(parts[0], current) and not _writes(unit, current, node):
                found = bound_by(unit, parts[0], node, holds=_is(parts[1], current))
        elif kind == COMPOUND_STMT:
            found = _before_in_block(unit, above, current, node)
        elif kind == FUNCTION_DECL or (kind in LOOPS and _writes(unit, above, node)):
            break  # a loop that writes the value runs its body again after the write
        if found is not None:
            bounds.append(found)
        current, above = above, unit.parent(above)
    if not bounds:
        return None
    lows = [low for low, _ in bounds if low is not None]
    highs = [high for _, high in bounds if high is not None]
    return (max(lows) if lows else None), (min(highs) if highs else None)


def _before_in_block(unit: Unit, block, statement, value) -> tuple[int | None, int | None] | None:
    """A guard among the statements before `statement` in block: `if (v > K)
    return ...;` (v <= K after it) or `if (v > K) v = K;`; none when v is
    written in between."""
    statements = unit.children(block)
    position = next((i for i, s in enumerate(statements) if _is(s, statement)), None)
    if position is None:
        return None
    for earlier in reversed(statements[:position]):
        if earlier._kind_id == IF_STMT:
            parts = unit.children(earlier)
            if len(parts) == 2 and _leaves(unit, parts[1]):
                found = bound_by(unit, parts[0], value, holds=False)
                if found is not None:
                    return found
            if len(parts) == 2 and _clamps(unit, parts[1], value):
                found = bound_by(unit, parts[0], value, holds=False)
                limit = unit.value(unit.children(unit.strip(_only(unit, parts[1])))[1])
                if found is not None and limit is not None:
                    low = min(found[0], limit) if found[0] is not None else None
                    high = max(found[1], limit) if found[1] is not None else None
                    return low, high
        if _writes(unit, earlier, value):
            return None
    return None


def _leaves(unit: Unit, branch) -> bool:
    """A branch that always leaves the block: a return, goto, break or continue, or a block ending in one."""
    if branch._kind_id in JUMPS:
        return True
    if branch._kind_id == COMPOUND_STMT:
        inner = unit.children(branch)
        return bool(inner) and inner[-1]._kind_id in JUMPS
    return False


def _only(unit: Unit, branch):
    """The one statement of a branch (itself, or the only one in its block)."""
    if branch._kind_id == COMPOUND_STMT:
        inner = unit.children(branch)
        return inner[0] if len(inner) == 1 else branch
    return branch


def _clamps(unit: Unit, branch, value) -> bool:
    """`v = K;`: the branch sets the value to a constant."""
    assignment = unit.strip(_only(unit, branch))
    if assignment._kind_id != BINARY_OPERATOR or unit.binary_operator(assignment) != "=":
        return False
    target, assigned = unit.children(assignment)
    return same_value(unit, target, value) and unit.value(assigned) is not None


def _writes(unit: Unit, statement, value) -> bool:
    """Whether a statement may change the value (an assignment to it, ++ or --, its address taken)."""
    return any(same_value(unit, target, value) for target in _written(unit, statement))


def _written(unit: Unit, statement) -> list:
    """What a statement assigns, increments or takes the address of: found in
    one walk of it, kept for every value asked about (a guard is looked for
    once per narrowing, through every statement around it)."""
    key = ("written", *identity(statement))
    if key not in unit.notes:
        targets = []
        for node in preorder(unit.ci, statement, WRITING):
            kind = node._kind_id
            if kind == BINARY_OPERATOR and unit.binary_operator(node) != "=":
                continue
            if kind == UNARY_OPERATOR and unit.unary_operator(node) not in ("++", "--", "&"):
                continue
            operands = unit.children(node)
            if operands:
                targets.append(operands[0])
        unit.notes[key] = targets
    return unit.notes[key]


def _is(a, b) -> bool:
    return identity(a) == identity(b)
