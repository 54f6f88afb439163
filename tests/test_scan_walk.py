"""The pieces under scan's precision and speed: the walk in C
(portkit._clangwalk through cparse.walk) against libclang's own visitor, and
the readers of macro definitions and uses (scan/macros.py), fuzzed."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.scan.macros import MacroIndex, arguments_at, definitions
from portkit.commands.scan.rules import pk402_pointer_bits_literal, pk403_mask_32_on_64, pk702_va_arg_narrow
from portkit.commands.scan.unit import identity
from portkit.core.abis import parse_abi
from portkit.cparse.libclang import binary_operator, cindex, evaluate_int, quick, skipped_lines
from portkit.cparse.parse import parse
from portkit.cparse.walk import (
    CONVERSION,
    KIND,
    arguments,
    callee,
    children,
    cursor_type,
    expression_at,
    extents,
    folded_children,
    kind_table,
    own_tops,
    preorder,
    strip,
    tops_of_kind,
    walk,
)

CODE = """#include <stddef.h>
struct rec { long a; int b; };
int f(struct rec *r, size_t n, int k)
{
    int x = n;                  /* size_t into int: a conversion */
    long y = k * 2;             /* int into long */
    x += k << 3;
    x = x & 0xff;
    if (x == 3)
        return (int) r->a;
    return x | y;
}
"""


def parsed_text(tmp_path: Path, name: str, text: str):
    """(cindex, the translation unit, its path) of text written to tmp_path/name, parsed for aarch64."""
    path = tmp_path / name
    path.write_text(text)
    tu, errors = parse(str(path), parse_abi("aarch64"), [], None, bodies=True, preprocessor_record=True)
    assert tu is not None and not errors
    return cindex(), tu, path


def file_tops(tu, path: Path) -> list:
    return [c for c in tu.cursor.get_children() if c.location.file and c.location.file.name == str(path)]


def parsed(tmp_path: Path):
    ci, tu, path = parsed_text(tmp_path, "walk.c", CODE)
    return ci, tu, file_tops(tu, path)


def everything(ci, top) -> list:
    """(node, parent) of every node below top, by libclang's own visitor."""
    found = []

    def visit(cursor, parent, _data) -> int:
        found.append((cursor, parent))
        return 2

    ci.conf.lib.clang_visitChildren(top, ci.callbacks["cursor_visit"](visit), None)
    return found


def test_the_nodes_of_the_kinds_asked_for_and_only_those(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    kinds = {ci.CursorKind.CSTYLE_CAST_EXPR.value, ci.CursorKind.IF_STMT.value}
    found = walk(ci, tu, tops, kinds)
    expected = [node for top in tops for node, _ in everything(ci, top) if node._kind_id in kinds]
    assert [(n.kind, n.extent.start.line) for _, n, _, _ in found.selected] == [
        (n.kind, n.extent.start.line) for n in expected
    ]
    assert all(tag == KIND for tag, *_ in found.selected)


def test_binary_operators_by_operator(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    kinds = {ci.CursorKind.BINARY_OPERATOR.value, ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR.value}
    found = walk(ci, tu, tops, kinds, operators={"<<", "&", "+="})
    assert sorted(op for _, _, _, op in found.selected) == ["&", "+=", "<<"]
    assert all(binary_operator(ci, node) == op for _, node, _, op in found.selected)
    every = walk(ci, tu, tops, kinds, operators=None)
    assert {op for *_, op in every.selected} == {"*", "+=", "<<", "=", "&", "==", "|"}


def test_implicit_conversions_by_their_types(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    ulong, long_, int_ = (getattr(ci.TypeKind, k).value for k in ("ULONG", "LONG", "INT"))
    found = walk(ci, tu, tops, kinds=(), conversions={int_: {ulong}, long_: {int_}})
    converted = [(p.type.get_canonical().spelling, n.type.get_canonical().spelling) for _, n, p, _ in found.selected]
    assert converted == [("int", "unsigned long"), ("long", "int"), ("long", "int")]  # x = n; k * 2; x | y
    assert all(tag == CONVERSION for tag, *_ in found.selected)


def test_the_conversions_of_integer_literals_only_when_asked(tmp_path: Path) -> None:
    """`p = 0` and `n = 1` are most of a unit's conversions: left out unless
    asked for; a literal in parentheses, or a negative one, is an expression
    of its own and stays."""
    code = "long f(int k, char *p)\n{\n    long n = 1;\n    p = 0;\n    n = k;\n    n = (2);\n    return n + -3;\n}\n"
    ci, tu, path = parsed_text(tmp_path, "literals.c", code)
    int_, long_, pointer = (getattr(ci.TypeKind, k).value for k in ("INT", "LONG", "POINTER"))
    wanted = {long_: {int_}, pointer: {int_}}

    def converted(literals: bool) -> list[tuple[int, str]]:
        found = walk(ci, tu, file_tops(tu, path), kinds=(), conversions=wanted, literals=literals)
        return [(n.extent.start.line, n.kind.name) for _, n, _, _ in found.selected]

    assert converted(True) == [
        (3, "INTEGER_LITERAL"),
        (4, "INTEGER_LITERAL"),
        (5, "UNEXPOSED_EXPR"),  # k read from its variable
        (6, "PAREN_EXPR"),
        (7, "UNARY_OPERATOR"),
    ]
    assert converted(False) == [(5, "UNEXPOSED_EXPR"), (6, "PAREN_EXPR"), (7, "UNARY_OPERATOR")]


def test_every_walked_node_knows_its_parent(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    found = walk(ci, tu, tops, kinds=())
    for top in tops:
        assert found.parent(top) == tu.cursor
        for node, parent in everything(ci, top):
            assert found.parent(node) == parent
    # a node reached another way (the bindings' get_children) is the same node
    body = list(tops[-1].get_children())[-1]
    first = next(iter(body.get_children()))
    assert found.parent(first) == body


def test_a_node_of_another_parse_has_no_parent_here(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    *_, other_tops = parsed(tmp_path / ".." / tmp_path.name)
    found = walk(ci, tu, tops[:1], kinds=())
    assert found.parent(other_tops[-1]) is None


# ---------------------------------------------------------------- macros, read from text

LINES = st.lists(
    st.one_of(
        st.text(alphabet="#define ABC(x)\\\t ;{}0123456789/*", max_size=40),
        st.sampled_from(["#define A 1", "#define B(x) ((x) + 1) \\", "  x = y; \\", "#  define C", "int a;"]),
    ),
    max_size=30,
)


# Calls direct and through a pointer, parentheses, implicit conversions, a
# va_arg (an implicit node wider than its child), a macro, typedefs of the
# project and of the system's headers.
CALLS = """#include <stdarg.h>
#include <stddef.h>
#define TWICE(x) ((x) * 2)
typedef unsigned long word;
static long sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    long total = (long) va_arg(ap, int);
    va_end(ap);
    return total + TWICE(n);
}
long (*through)(int, ...) = sum;
word use(size_t n)
{
    word w = (word) sum(2, (int) n, 3);
    return w + through(1, 2) + ((sum(0)));
}
"""


def parsed_calls(tmp_path: Path):
    return parsed_text(tmp_path, "calls.c", CALLS)


def bindings_strip(ci, cursor):
    """What scan's strip did in Python with the bindings: under implicit
    conversions and parentheses, unless the implicit node is wider than its child."""
    kinds = (ci.CursorKind.UNEXPOSED_EXPR, ci.CursorKind.PAREN_EXPR)
    while cursor.kind in kinds:
        inner = next(iter(cursor.get_children()), None)
        if inner is None or (cursor.kind == ci.CursorKind.UNEXPOSED_EXPR and inner.extent != cursor.extent):
            break
        cursor = inner
    return cursor


def test_own_tops_are_the_project_declarations_libclang_lists(tmp_path: Path) -> None:
    ci, tu, path = parsed_calls(tmp_path)
    expected = [
        c
        for c in tu.cursor.get_children()
        if c._kind_id < 500 and c.location.file is not None and not c.location.is_in_system_header
    ]
    found = own_tops(ci, tu)
    assert [bytes(c) for c in found] == [bytes(c) for c in expected]
    assert [c.spelling for c in found] == ["word", "sum", "through", "use"]
    assert all(c.location.file.name == str(path) for c in found)


def test_tops_of_kind_include_the_system_headers(tmp_path: Path) -> None:
    ci, tu, _ = parsed_calls(tmp_path)
    kind = ci.CursorKind.TYPEDEF_DECL
    found = tops_of_kind(ci, tu, kind.value)
    assert [bytes(c) for c in found] == [bytes(c) for c in tu.cursor.get_children() if c.kind == kind]
    assert {"size_t", "va_list", "word"} <= {c.spelling for c in found}


def test_node_questions_answer_as_the_bindings_do(tmp_path: Path) -> None:
    ci, tu, _ = parsed_calls(tmp_path)
    nodes = [node for top in own_tops(ci, tu) for node, _ in everything(ci, top)]
    for node in nodes:
        node._tu = tu  # as the walk's nodes have it
    calls = [n for n in nodes if n.kind == ci.CursorKind.CALL_EXPR]
    assert len(calls) >= 5
    for node in nodes:
        assert bytes(strip(ci, node)) == bytes(bindings_strip(ci, node))
        assert cursor_type(ci, node).spelling == node.type.spelling
        assert cursor_type(ci, node).kind == node.type.kind
    called = []
    for call in calls:
        expected = call.referenced
        if expected is None or expected.kind != ci.CursorKind.FUNCTION_DECL:
            assert callee(ci, call) is None
        else:
            assert bytes(callee(ci, call)) == bytes(expected)
            called.append(callee(ci, call).spelling)
        assert [bytes(a) for a in arguments(ci, call)] == [bytes(a) for a in call.get_arguments()]
    assert called.count("sum") == 2  # the call through a pointer has no callee
    assert arguments(ci, tu.cursor) == []  # not a call: none


MASKS = """unsigned long m(unsigned long v, long s)
{
    unsigned long w = 0xFFFFFFFF;
    long l = (long) 0x7FFFFFFF;
    v &= (0xFFFFFFFFUL);
    s = s | 0x80000000;
    if (v == 4294967295u || s != -1)
        return (unsigned long) -1;
    return v ^ w + (0xffffffff + 0);
}
"""


def test_folded_children_are_the_stripped_children_that_fold_to_the_values(tmp_path: Path) -> None:
    ci, tu, _ = parsed_text(tmp_path, "masks.c", MASKS)
    nodes = [node for top in own_tops(ci, tu) for node, _ in everything(ci, top)]
    literal_or_cast = {ci.CursorKind.INTEGER_LITERAL.value, ci.CursorKind.CSTYLE_CAST_EXPR.value}
    operations = {"VAR_DECL", "BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "RETURN_STMT"}
    for values in ((0xFFFFFFFF, 0x7FFFFFFF, 0x80000000), (-1,), ()):
        marked = set()
        for node in nodes:
            node._tu = tu
            expected = []
            for child in children(ci, node):
                operand = strip(ci, child)
                expected.append(operand.kind.value in literal_or_cast and evaluate_int(ci, operand) in values)
            found = folded_children(ci, node, kind_table(literal_or_cast), values)
            assert [bool(mark) for mark in found] == expected
            if any(found) and node.kind.name in operations:
                marked.add(node.location.line)
        # the limits' lines (the sum's literal on line 9 too); -1: the return's cast, not `s != -1` (a negation)
        assert marked == {3: {3, 4, 5, 6, 7, 9}, 1: {8}, 0: set()}[len(values)]


def _extent(node) -> tuple[tuple[int, int], tuple[int, int]]:
    start, end = node.extent.start, node.extent.end
    return (start.line, start.column), (end.line, end.column)


def _bindings_expression_at(top, span):
    """expression_at as the bindings find it: down through the children whose extents hold span."""
    node, found = top, None
    while node is not None:
        inside = None
        for child in node.get_children():
            extent = _extent(child)
            if extent == span:
                found = inside = child
                break
            if extent[0] <= span[0] and span[1] <= extent[1]:
                inside = child
                break
        node = inside
    return found


def test_expression_at_finds_what_the_bindings_find(tmp_path: Path) -> None:
    ci, _, tops = parsed(tmp_path)
    spans = {_extent(node) for top in tops for node, _ in everything(ci, top)}
    spans |= {((4, 1), (4, 2)), ((99, 1), (99, 9)), ((5, 5), (5, 11))}  # in no node, past the end, a part of one
    found = 0
    for top in tops:
        for span in sorted(spans):
            expected = _bindings_expression_at(top, span)
            got = expression_at(ci, top, span)
            assert (got is None) == (expected is None)
            if got is not None:
                assert bytes(got) == bytes(expected) and _extent(got) == span
                found += 1
    assert found > 20


def test_extents_are_where_the_bindings_say_cursors_start_and_end(tmp_path: Path) -> None:
    ci, tu, tops = parsed(tmp_path)
    nodes = [node for top in tops for node, _ in everything(ci, top)] + tops + [tu.cursor]
    found = extents(ci, nodes)
    assert len(found) == len(nodes) > 20
    for node, (file, start, end) in zip(nodes, found, strict=True):
        (file_expected, *start_expected), (_, *end_expected) = quick(ci).extent(node)
        assert ((file or None), start, end) == (file_expected, tuple(start_expected), tuple(end_expected))
        assert (start, end) == _extent(node)
    assert extents(ci, []) == []


LEFT_OUT = """#include "part.h"
#if 0
int gone;
#endif
#ifdef NEVER
int also_gone;
#else
int kept;
#endif
"""


def test_skipped_lines_are_the_regions_the_preprocessor_left_out(tmp_path: Path) -> None:
    (tmp_path / "part.h").write_text("#ifndef PART\n#define PART\n#if 1\nint a;\n#else\nint b;\n#endif\n#endif\n")
    ci, tu, path = parsed_text(tmp_path, "left.c", LEFT_OUT)
    assert skipped_lines(ci, tu, str(path)) == [(2, 4), (5, 7)]  # from the #if to its #endif or #else
    assert skipped_lines(ci, tu, str(tmp_path / "part.h")) == [(5, 7)]
    assert skipped_lines(ci, tu, str(tmp_path / "never-read.h")) == []


def test_preorder_is_walk_preorder_of_the_kinds_asked_for(tmp_path: Path) -> None:
    ci, tu, _ = parsed_calls(tmp_path)
    kinds = {ci.CursorKind.CALL_EXPR.value, ci.CursorKind.DECL_REF_EXPR.value, ci.CursorKind.FUNCTION_DECL.value}
    table = kind_table(kinds)
    for top in own_tops(ci, tu):
        expected = [n for n in top.walk_preorder() if n._kind_id in kinds]
        # as the scan tells nodes apart (a recursive visit gives an expression its declaration, data[0])
        assert [identity(n) for n in preorder(ci, top, table)] == [identity(n) for n in expected]
    use = own_tops(ci, tu)[-1]
    assert [n.spelling for n in preorder(ci, use, table)][:4] == ["use", "sum", "sum", "n"]  # itself first
    assert preorder(ci, use, kind_table(())) == []


@settings(max_examples=300, deadline=None)
@given(LINES)
def test_definitions_never_fail_and_hold_their_lines(lines: list[str]) -> None:
    text = "\n".join(lines)
    for macro in definitions("f.h", text):
        assert macro.name and macro.line >= 1
        assert "\n".join(macro.lines) in text
        first = text.splitlines()[macro.line - 1]
        assert first == macro.lines[0] and "define" in first


FIRST_DEFINES = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)  # as first written


@settings(max_examples=300, deadline=None)
@given(LINES, st.sampled_from(["\n", "\r\n"]))
def test_definitions_are_the_directives_the_first_pattern_found(lines: list[str], newline: str) -> None:
    text = newline.join(lines)
    expected = [(text.count("\n", 0, m.start()) + 1, m[1]) for m in FIRST_DEFINES.finditer(text)]
    assert [(m.line, m.name) for m in definitions("f.h", text)] == expected


def test_definitions_follow_continuation_lines() -> None:
    text = "int a;\n#define STEP(p) \\\n  do { (p)++; \\\n  } while (0)\n#  define LIMIT 32\n"
    found = definitions("f.h", text)
    assert [(m.name, m.line, len(m.lines)) for m in found] == [("STEP", 2, 3), ("LIMIT", 5, 1)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="FOO(a,b)x ,\n()", max_size=60), st.integers(1, 5), st.integers(1, 10))
def test_arguments_at_never_fail(text: str, line: int, column: int) -> None:
    found = arguments_at(text.splitlines(), line, column)
    assert isinstance(found, list)


def test_arguments_at_a_use() -> None:
    lines = ["    x = NOTE(&st, f(a, b) + 1);", "    y = LIMIT;"]
    assert arguments_at(lines, 1, 9) == ["&st", " f(a, b) + 1"]
    assert arguments_at(lines, 2, 9) == []


class _Holder:
    """What holds a MacroIndex whose reader reads through the holder (as a scanned unit does)."""

    def __init__(self, text: str) -> None:
        self.index = MacroIndex(lambda: definitions("f.h", self.text))
        self.text = text


def test_a_read_macro_index_lets_its_holder_go_without_the_cycle_collector() -> None:
    """A unit's objects (a million on sqlite3.c) are freed as soon as its scan
    ends, not left for the cycle collector to walk."""
    holder = _Holder("#define LIMIT 32\n")
    assert [m.line for m in holder.index.get("LIMIT")] == [1]
    assert holder.index.get("OTHER") == []
    gone = weakref.ref(holder)
    was_on = gc.isenabled()
    gc.disable()
    try:
        del holder
        assert gone() is None
    finally:
        if was_on:
            gc.enable()


# The searches that say whether a file can hold what a rule looks for, as
# first written (a leading \b); the faster spellings must find the same.
FIRST_WRITTEN = (
    (re.compile(r"\b3[12]\b"), (pk402_pointer_bits_literal.WRITTEN,)),
    (
        re.compile(
            r"0[xX]0*(?:7[fF]{7}|80{7}|[fF]{8})(?![0-9a-fA-F])|\b(?:214748364[78]|4294967295)\b|\)\s*(?:-\s*1|~\s*0)\b"
        ),
        pk403_mask_32_on_64.WRITTEN,
    ),
    (re.compile(r"\bva_arg\b"), (pk702_va_arg_narrow.VA_ARG,)),
)
PIECES = ["3", "31", "32", "0x7fffffff", "0X80000000", "0xFFFFFFFF", "0x00ffffffff", "2147483647", "2147483648"]
PIECES += ["4294967295", "(unsigned)", ") -1", "~0", "va_arg", "asm", "__asm__", "arm_neon", "__builtin_arm_", "x", "_"]
PIECES += [" ", "\n", "1", "f", "U", "(", ")"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_the_faster_searches_find_what_the_first_ones_found(pieces: list[str]) -> None:
    text = "".join(pieces)
    for first, faster in FIRST_WRITTEN:
        assert (first.search(text) is not None) == any(way.search(text) is not None for way in faster), text


CALLS_BY_NAME = """#include <stdarg.h>
#include <string.h>
int logf_(const char *format, ...);
int plain(int x);
int (*through)(int);
void g(char *p, int n)
{
    memset(p, 0, n);            /* named */
    logf_("%d", n);             /* variadic */
    plain(n);                   /* neither */
    through(n);                 /* no function to name */
}
"""


def test_the_calls_of_the_functions_named_or_variadic_and_only_those(tmp_path: Path) -> None:
    ci, tu, path = parsed_text(tmp_path, "calls.c", CALLS_BY_NAME)
    tops = file_tops(tu, path)
    call = ci.CursorKind.CALL_EXPR.value

    def called(callees) -> list[str]:
        found = walk(ci, tu, tops, {call}, callees=callees)
        return [node.spelling for tag, node, _, _ in found.selected if tag & KIND]

    assert called(None) == ["memset", "logf_", "plain", "through"]
    assert called((["memset", "strlen"], False)) == ["memset"]
    assert called(([], True)) == ["logf_"]
    assert called((["plain"], True)) == ["logf_", "plain"]
    assert called(([], False)) == []


BOUNDS = """unsigned long rotate(unsigned long x, int n, int i)
{
    if (i < 32)                 /* a 32 in the comparison the if tests */
        x = x >> (32 - n);      /* a 32 below the shift's amount */
    if ((i < 10))               /* no constant of the set */
        x = x >> n;
    while (i != 31)
        i++;
    return x;
}
"""


def test_nodes_holding_a_constant_below_them_and_only_those(tmp_path: Path) -> None:
    ci, tu, path = parsed_text(tmp_path, "bounds.c", BOUNDS)
    literals = kind_table((ci.CursorKind.INTEGER_LITERAL.value,))
    statements = [ci.CursorKind.IF_STMT.value, ci.CursorKind.WHILE_STMT.value]

    def lines(below: bool) -> list[tuple[str, int]]:
        found = walk(
            ci,
            tu,
            file_tops(tu, path),
            [ci.CursorKind.BINARY_OPERATOR.value],  # by operator: >> only with a constant
            operators=[],
            constants=(literals, (31, 32), below),
            by_constant=[">>"],
            kinds_by_constant=statements,
        )
        return [(node.kind.name, node.location.line) for tag, node, _, _ in found.selected if tag & KIND]

    assert lines(True) == [("IF_STMT", 3), ("BINARY_OPERATOR", 4), ("WHILE_STMT", 7)]
    assert lines(False) == []  # the constants are an operand's operands, not the nodes' own


CASTS_OF_ALL_SORTS = """long casts(void *p, long n, char a[4])
{
    int i = (int) n;                /* an integer of an integer: no pointer */
    int j = (int) (long) p;         /* a pointer under another cast */
    char *q = (char *) n;           /* a pointer made */
    long k = (long) a;              /* an array, a pointer once decayed */
    double d = (double) i;
    return i + j + k + (long) q + (long) d;
}
"""


def test_casts_that_make_or_unmake_a_pointer_and_only_those(tmp_path: Path) -> None:
    ci, tu, path = parsed_text(tmp_path, "casts.c", CASTS_OF_ALL_SORTS)
    cast = ci.CursorKind.CSTYLE_CAST_EXPR.value

    def spelled(pointer_casts) -> list[str]:
        found = walk(ci, tu, file_tops(tu, path), [cast], pointer_casts=pointer_casts)
        text = path.read_text().splitlines()
        return [
            text[n.extent.start.line - 1][n.extent.start.column - 1 : n.extent.end.column - 1]
            for tag, n, _, _ in found.selected
            if tag & KIND
        ]

    everything = spelled(None)
    assert len(everything) == 8
    assert spelled([cast]) == ["(int) (long) p", "(long) p", "(char *) n", "(long) a", "(long) q"]
