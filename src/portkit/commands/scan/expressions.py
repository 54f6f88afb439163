"""What several rules ask of an expression or a diagnostic: is it a va_arg, a
call through an implicit declaration, a time_t, a narrowing clang reported?
Rules share these; no rule file imports another."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.messages import diagnostic_location, diagnostic_span, quoted_types
from portkit.commands.scan.unit import Unit, identity
from portkit.commands.scan.values import consumer, fits, low_bits_kept, value_range
from portkit.commands.scan.widths import Width, loses_bits_only_on_target

CASTS = ("CSTYLE_CAST_EXPR", "CXX_REINTERPRET_CAST_EXPR", "CXX_STATIC_CAST_EXPR", "CXX_FUNCTIONAL_CAST_EXPR")
TIME_TYPEDEFS = frozenset({"time_t", "__time_t", "__time64_t"})
NARROWING = "implicit conversion loses integer precision"


def is_va_arg(unit: Unit, cursor) -> bool:
    """A va_arg(ap, T) expression. libclang shows it as an unexposed
    expression (and, made by a macro, without tokens) whose one value child is
    the va_list (a typedef in T adds a type reference); its own type is T,
    which no conversion of a va_list can be."""
    if cursor.kind != unit.ci.CursorKind.UNEXPOSED_EXPR:
        return False
    children = [c for c in unit.children(cursor) if c.kind != unit.ci.CursorKind.TYPE_REF]  # va_arg(ap, my_t *)
    if len(children) != 1 or not _is_va_list(children[0].type):
        return False
    own = cursor.type
    return not _is_va_list(own) and "__va_list_tag" not in own.get_canonical().spelling


def _is_va_list(t) -> bool:
    return "va_list" in t.spelling or "va_list" in t.get_canonical().spelling


def is_implicit_call(unit: Unit, node) -> bool:
    """A call to a function clang declared on the spot (Unit.calls_undeclared)."""
    node = unit.strip(node)
    return node.kind == unit.ci.CursorKind.CALL_EXPR and unit.calls_undeclared(node)


def _named_expression(unit: Unit, diag, named: tuple[str, str | None], into: tuple[str, str | None] | None = None):
    """The expression clang's range covers, if its type is the one the message
    names. Inside one of the project's macros every node has the place of
    the macro's use, and ranges no longer tell nodes apart: there it is the
    value of the conversion from the named type (into `into`) around that
    place, the n-th for clang's n-th message there."""
    spelling, aka = named
    if into is not None and unit.in_project_macro(diag.location):
        return _converted_at(unit, diag, (_bare(aka or spelling), _bare(into[1] or into[0])))
    node = unit.expression_at(diag)
    if node is None:
        return None
    return node if _bare(unit.strip(node).type.get_canonical().spelling) == _bare(aka or spelling) else None


def _converted_at(unit: Unit, diag, types: tuple[str, str]):
    point = diag.location
    here = (point.line, point.column)
    candidates = []
    for extent, conversion in unit.conversions_around(point):
        if not extent[0] <= here <= extent[1]:
            continue
        values = [c for c in unit.children(conversion) if c.kind.is_expression()]
        if len(values) != 1:
            continue
        converted = (values[0].type.get_canonical().spelling, conversion.type.get_canonical().spelling)
        if tuple(map(_bare, converted)) == types:
            candidates.append((extent, values[0]))
    if not candidates:
        return None
    smallest = min(_size(extent) for extent, _ in candidates)
    innermost = [value for extent, value in candidates if _size(extent) == smallest]
    key = ("macro diagnostics", here, types)
    seen = unit.notes[key] = unit.notes.get(key, -1) + 1
    return innermost[min(seen, len(innermost) - 1)]


def _size(extent: tuple[tuple[int, int], tuple[int, int]]) -> tuple[int, int]:
    (start_line, start_column), (end_line, end_column) = extent
    return end_line - start_line, end_column - start_column


def _bare(spelling: str) -> str:
    return spelling.replace("const ", "").replace("volatile ", "").strip()


def is_time(unit: Unit, spelling: str) -> bool:
    """time_t, directly or through the project's own typedefs of it."""
    return any(name in TIME_TYPEDEFS for name in unit.typedef_chain(spelling))


def narrowing(unit: Unit, diag) -> tuple[Width, Width, bool, object] | None:
    """clang's -Wshorten-64-to-32 (it knows value ranges: x & 0xff fits
    anywhere) for the target, kept where the conversion was whole at home:
    (the value's width, the destination's, whether the value is a time_t,
    the value's node or None).
    The value is read from the expression clang points at, so a size_t or a
    pointer difference counts as one at home even where the target's message
    spells it `unsigned long long`."""
    key = ("narrowing", diag.location.line, diag.location.column, diag.spelling)
    if key not in unit.notes:  # PK301 and PK302 both ask of each diagnostic
        unit.notes[key] = _narrowing(unit, diag)
    return unit.notes[key]


def _narrowing(unit: Unit, diag) -> tuple[Width, Width, bool, object] | None:
    types = quoted_types(diag.spelling)
    if not diag.spelling.startswith(NARROWING) or len(types) < 2:
        return None
    value = _named_expression(unit, diag, types[0], types[1])
    before = unit.expression_width(value) if value is not None else unit.width_named(*types[0])
    after = unit.width_named(*types[1])
    if not loses_bits_only_on_target(before, after):
        return None
    if value is not None and _unchanged(unit, value, after):
        return None
    time = is_time(unit, types[0][0]) or (value is not None and is_time(unit, unit.strip(value).type.spelling))
    return before, after, time, value


def _unchanged(unit: Unit, value, into: Width) -> bool:
    """A narrowing that gives the same value in both models: 32-bit values
    through 64-bit arithmetic and back (`(int)(n * sizeof x)` of an int n),
    or a value bounded by what went into it (`read(fd, buf, 512)`)."""
    if low_bits_kept(unit, value, 8 * into.target):
        return True
    return into.integer and fits(value_range(unit, value), into.kind, into.target)


def narrowed_product(unit: Unit, conversion) -> bool:
    """A product narrowed (count * sizeof(struct rec) into unsigned) that clang
    did not report: it takes a product's range from its operands and stays
    silent, but it is 64-bit arithmetic cut back on the target all the same."""
    before, after = conversion.before, conversion.after
    if not (before.integer and after.integer) or not loses_bits_only_on_target(before, after):
        return False
    node = unit.strip(conversion.value)
    if node.kind != unit.ci.CursorKind.BINARY_OPERATOR or unit.binary_operator(node) not in ("*", "<<"):
        return False
    start = node.extent.start
    if (start.line, start.column) in _reported_by_clang(unit):
        return False  # clang reported it (PK301 or PK302 explains it, if anything does)
    return unit.value(node) is None and not _unchanged(unit, node, after)


def _reported_by_clang(unit: Unit) -> set[tuple[int, int]]:
    """Where the expressions clang's -Wshorten-64-to-32 speaks of start, found once per unit."""
    if "narrowings reported" not in unit.notes:
        starts = set()
        for diag in unit.tu.diagnostics:
            span = diagnostic_span(diag) if diag.option == "-Wshorten-64-to-32" else None
            if span is not None:
                starts.add((span.start.line, span.start.column))
        unit.notes["narrowings reported"] = starts
    return unit.notes["narrowings reported"]


COMPOUND_ARITHMETIC = frozenset({"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="})


def compound_narrowing(unit: Unit, node) -> tuple[Width, Width, bool] | None:
    """`int ms; ms += long_value;` computes in long and stores into the int,
    and clang's -Wshorten-64-to-32 says nothing about a compound assignment:
    (the value's width, the variable's, whether the value is a time_t)."""
    key = ("compound narrowing", *identity(node))
    if key not in unit.notes:  # PK301 and PK302 both ask of each compound assignment
        unit.notes[key] = _compound_narrowing(unit, node)
    return unit.notes[key]


def _compound_narrowing(unit: Unit, node) -> tuple[Width, Width, bool] | None:
    if unit.binary_operator(node) not in COMPOUND_ARITHMETIC:
        return None
    children = unit.children(node)
    if len(children) != 2:
        return None
    into, value = unit.width_of(unit.strip(children[0])), unit.expression_width(children[1])
    if not (into.integer and value.integer) or not loses_bits_only_on_target(value, into):
        return None
    if unit.value(children[1]) is not None:
        return None  # a constant that fits, or the compiler says it does not
    if low_bits_kept(unit, children[1], 8 * into.target):
        return None  # `int n; n += k * sizeof(x)` with an int k: the same int in both models
    bounds = value_range(unit, children[1])
    if fits(bounds, "signed", into.target) or fits(bounds, "unsigned", into.target):
        return None  # `n += (strlen(s) & 0x3fffffff) + 1`: a value of 32 bits added, the same low bits
    return value, into, is_time(unit, unit.strip(children[1]).type.spelling)


def narrowing_check(rule, time: bool, message) -> Check:
    """The Check of PK301 (time=False) and PK302 (time=True): clang's
    narrowing diagnostics, products it lets through, compound assignments;
    each kept when the value is (or is not) a time_t. message(unit, before,
    after) words the finding."""

    def on_diagnostic(unit: Unit, diag) -> None:
        found = narrowing(unit, diag)
        if found is not None and found[2] == time:
            value = found[3]
            anchor = (lambda: consumer(unit, value)) if value is not None else None
            unit.add(rule, diagnostic_location(diag), message(unit, found[0], found[1]), anchor=anchor)

    def on_conversion(unit: Unit, conversion) -> None:
        if narrowed_product(unit, conversion) and is_time(unit, unit.strip(conversion.value).type.spelling) == time:
            value = unit.strip(conversion.value)
            anchor = lambda: consumer(unit, conversion.result)  # noqa: E731
            unit.report(rule, value, message(unit, conversion.before, conversion.after), anchor=anchor)

    def on_compound(unit: Unit, node, _parent) -> None:
        found = compound_narrowing(unit, node)
        if found is not None and found[2] == time:
            unit.report(rule, node, message(unit, found[0], found[1]), anchor=node)

    return Check(
        rule,
        nodes={"COMPOUND_ASSIGNMENT_OPERATOR": on_compound},
        operators={"COMPOUND_ASSIGNMENT_OPERATOR": COMPOUND_ARITHMETIC},
        diagnostics={"-Wshorten-64-to-32": on_diagnostic},
        conversions=on_conversion,
    )
