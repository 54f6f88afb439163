"""One translation unit being scanned: what every rule's check is handed.

It holds the parse, the two models, and the findings made so far; rules ask
it for widths, values and source text, and report through it, so a rule file
holds only its own logic."""

from __future__ import annotations

import bisect
import functools
import os
import re
from dataclasses import dataclass, field
from typing import Any

from portkit.commands.scan.home import Home
from portkit.commands.scan.macros import MacroIndex, arguments_at, definitions, is_alias
from portkit.commands.scan.messages import diagnostic_span, shown_path
from portkit.commands.scan.models import ModelPair
from portkit.commands.scan.widths import Width, width, width_named
from portkit.cparse.libclang import (
    Quick,
    binary_operator,
    evaluate_int,
    inclusions,
    quick,
    skipped_lines,
    unary_operator,
)
from portkit.cparse.walk import (
    arguments,
    callee,
    children,
    cursor_type,
    expression_at,
    extents,
    kind_table,
    preorder,
    strip,
    tops_of_kind,
    walk,
)
from portkit.findings.model import Finding, Location, Rule

# C library functions whose result is a typedef that clang's own declaration of
# the builtin spells canonically (strlen returns `unsigned long long` on MinGW).
LIBRARY_RESULTS = {
    **dict.fromkeys(("strlen", "strnlen", "wcslen", "strspn", "strcspn", "fread", "fwrite", "strftime"), "size_t"),
    **dict.fromkeys(("read", "write", "pread", "pwrite", "recv", "send", "recvfrom", "sendto"), "ssize_t"),
    **dict.fromkeys(("lseek",), "off_t"),
    **dict.fromkeys(("time", "mktime"), "time_t"),
}


_UNKNOWN = object()
WORD = re.compile(r"\w+")
# What decides whether a macro made a finding: a node, a function finding it, or None (no macro question).
Anchor = Any
# Nodes whose names say which line of a macro's body an expression is on.
NAMING = kind_table((101, 102, 103))  # CXCursor_DeclRefExpr, MemberRefExpr, CallExpr
IMPLICIT_KIND = 100  # CXCursor_UnexposedExpr: what libclang shows an implicit conversion as
CALL_KIND = 103  # CXCursor_CallExpr
CALLS = kind_table((CALL_KIND,))
STRIPPED_KINDS = frozenset({100, 111})  # CXCursor_UnexposedExpr, CXCursor_ParenExpr: what strip() looks under


@dataclass(frozen=True)
class Conversion:
    """An implicit conversion: `value` (a cursor) became `result` (the implicit
    cast around it), from one width into another."""

    value: object
    result: object
    before: Width
    after: Width


@dataclass
class Unit:
    ci: object  # clang.cindex
    tu: object  # its TranslationUnit: the target ABI's parse, or the home one for code only it compiles
    pair: ModelPair
    home: Home | None = None  # the same file as the source ABI sees it, parsed on demand
    findings: list[Finding] = field(default_factory=list)
    tops: list = field(default_factory=list)  # the project's own top-level declarations, as walked
    notes: dict = field(default_factory=dict)  # what several rules work out once per unit
    # the parse stopped at a missing header: a finding that involves a call to
    # a function clang had to declare on the spot is not reported
    lost_headers: bool = False
    _told: set[Finding] = field(default_factory=set)
    _typedefs: dict[str, object] = field(default_factory=dict)
    _answers: dict = field(default_factory=dict)
    # findings a macro's body made, moved to its definition: -> (the macro's name, its uses)
    expansions: dict[Finding, tuple[str, set[tuple[str, int, int]]]] = field(default_factory=dict)
    _macros: MacroIndex | None = None
    _spans: dict | None = None  # file -> (start, end, top) of each top-level declaration, by start
    walks: list = field(default_factory=list)  # cparse.walk's Walked: the unit's, and declarations walked alone
    _conversions: dict = field(default_factory=dict)  # top-level declaration -> its implicit conversions
    _widths: dict = field(default_factory=dict)
    _quick: Quick | None = None
    _cursors: dict[bytes, object] = field(default_factory=dict)  # declarations' cursors, one object each

    # ---------------------------------------------------------- asking

    @property
    def quick(self) -> Quick:
        if self._quick is None:
            self._quick = quick(self.ci)
        return self._quick

    def top_around(self, location):
        """The top-level declaration whose extent holds location (None: none of the project's)."""
        if self._spans is None:
            spans: dict[int | None, list] = {}
            for (file, start, end), top in zip(extents(self.ci, self.tops), self.tops, strict=True):
                spans.setdefault(file or None, []).append((start, end, top))
            self._spans = {file: sorted(found, key=lambda s: s[0]) for file, found in spans.items()}
        file, line, column = self.quick.place(location)
        found = self._spans.get(file, []) if file else []
        here = (line, column)
        index = bisect.bisect_right(found, here, key=lambda s: s[0])
        for start, end, top in reversed(found[max(0, index - 4) : index]):  # declarations may nest (a struct's typedef)
            if start <= here <= end:
                return top
        return None

    def width(self, t) -> Width:
        """The Width of a type, worked out once per type of the unit (a type is
        its kind and clang's QualType: an int written twice is one type)."""
        key = (t._kind_id, t.data[0], t.data[1])
        known = self._widths.get(key)
        if known is None:
            known = self._widths[key] = width(self.ci, self.pair, t)
        return known

    def width_of(self, cursor) -> Width:
        """The width of a node's type; several rules ask of the same node, libclang once."""
        return self._remember("width", cursor, lambda: self.width(cursor_type(self.ci, cursor)))

    def definitions(self, path: str) -> list:
        """The #defines of one of the unit's files that the preprocessor saw
        (not those in a region an #if left out), read once, their paths as shown."""
        key = ("definitions", path)
        if key not in self.notes:
            left_out = sorted(skipped_lines(self.ci, self.tu, path))
            firsts = [a for a, _ in left_out]
            stamp = _stamp(path)
            written = _definitions(stamp, os.getcwd()) if stamp else ()
            self.notes[key] = [m for m in written if not _inside(left_out, firsts, m.line)]
        return self.notes[key]

    def mentions(self, pattern: re.Pattern[str]) -> bool:
        """Whether the unit's own text (its file and the project's headers it
        includes) matches: a rule that needs a number written somewhere
        (0x7FFFFFFF, 32) need not look at a file that never writes it."""
        for path in self._own_files():
            stamp = _stamp(path)
            if stamp and _mentions(pattern, stamp):
                return True
        return False

    def width_named(self, spelling: str, aka: str | None = None) -> Width:
        """The Width of a type as a clang message names it. A typedef name is
        found among this unit's declarations and followed through its chain
        (a project's `typedef uint64_t u64` stays 8 bytes at home); other
        names are builtins or pointers."""
        declaration = self._typedef(bare(spelling))
        if declaration is not None:
            return width(self.ci, self.pair, declaration.type)
        return width_named(self.pair, bare(spelling), aka and bare(aka))

    def expression_width(self, cursor) -> Width:
        """The Width of an expression's value, seen as the source ABI types it:
        a pointer difference is a ptrdiff_t and sizeof a size_t there, even
        where the target spells them `long long`; a call returns what its
        declaration says (size_t, not the builtin's canonical type)."""
        ci, node = self.ci, self.strip(cursor)
        own = cursor_type(ci, node)
        if own.get_canonical().kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            pointers = self.pair.source.builtins["POINTER"], self.pair.target.builtins["POINTER"]
            return Width(own.spelling, *pointers, "pointer")  # an array as a value is a pointer to its start
        target = self.width(own)
        typedefs = self.pair.source.typedefs
        if node.kind == ci.CursorKind.BINARY_OPERATOR and self.binary_operator(node) == "-":
            operands = self.children(node)
            if len(operands) == 2 and all(self.width_of(o).kind == "pointer" for o in operands):
                return Width("ptrdiff_t", typedefs.get("ptrdiff_t"), target.target, "signed")
        if node.kind == ci.CursorKind.CXX_UNARY_EXPR:
            return Width("size_t", typedefs.get("size_t"), target.target, "unsigned")
        if node.kind == ci.CursorKind.CALL_EXPR:
            callee = self.callee(node)
            if callee is not None:
                result = callee.result_type
                named = LIBRARY_RESULTS.get(callee.spelling)
                if result.kind != ci.TypeKind.TYPEDEF and named in typedefs:
                    return Width(named, typedefs[named], target.target, target.kind)
                return self.width(result)
        return target

    def expression_at(self, diag):
        """The expression a diagnostic's range covers (the value clang says is
        converted, the argument a directive reads), innermost of those with
        exactly that extent; None when it is not in the project's own code.
        Only the nodes on the way down to it are asked for their children."""
        point, span = diag.location, diagnostic_span(diag)
        if span is None or point.file is None:
            return None
        wanted = ((span.start.line, span.start.column), (span.end.line, span.end.column))
        top = self.top_around(point)
        return expression_at(self.ci, top, wanted) if top is not None else None

    def typedef_chain(self, spelling: str) -> list[str]:
        """A typedef name and every typedef it is defined through: mytime_t, time_t, __time_t."""
        chain = [bare(spelling)]
        declaration = self._typedef(chain[0])
        ci = self.ci
        while declaration is not None and len(chain) < 64:
            t = declaration.underlying_typedef_type
            while t.kind == ci.TypeKind.ELABORATED:
                t = t.get_named_type()
            if t.kind != ci.TypeKind.TYPEDEF:
                break
            declaration = t.get_declaration()
            chain.append(declaration.spelling)
        return chain

    def _typedef(self, name: str):
        if not self._typedefs:  # indexed once, the first time a name is asked
            kind = self.ci.CursorKind.TYPEDEF_DECL.value
            self._typedefs.update((c.spelling, c) for c in tops_of_kind(self.ci, self.tu, kind))
            self._typedefs.setdefault("", None)
        return self._typedefs.get(name)

    def spelled(self, cursor) -> str:
        """The word written where a node starts: `INT_MAX` for a constant from
        that macro (libclang gives a macro's expansion no tokens of its own)."""
        return self._word_at(cursor.location)

    def _word_at(self, location) -> str:
        if location.file is None:
            return ""
        text = self._latin1(location.file.name)
        offset = location.offset  # a byte in the file: a character of its Latin-1 text
        word = WORD.match(text, offset) if 0 <= offset < len(text) else None
        return word.group(0) if word else ""

    def source_lines(self, path: str, first: int, last: int) -> list[str]:
        """Lines first..last (1-based) of a file a finding is in, as shown (relative or absolute)."""
        return self._lines(path)[first - 1 : last]

    def _lines(self, path: str) -> list[str]:
        """A file's lines as Latin-1 text (a byte a column, as clang counts),
        made once per unit and only when asked (most units never ask): the
        text parsed where the engine left it (notes[("parsed text", path)];
        it differs from the disk's while --fix checks a fix), else the disk's."""
        lines = self.notes.get(("lines", path))
        if lines is None:
            lines = self.notes[("lines", path)] = self._latin1(path).splitlines()
        return lines

    def _latin1(self, path: str) -> str:
        """A file's text as Latin-1 (a byte a character, as clang's offsets
        and columns count), made once per unit: the text parsed where the
        engine left it, else the disk's."""
        text = self.notes.get(("latin-1", path))
        if text is None:
            parsed = self.notes.get(("parsed text", path))
            if parsed is None:
                text = self._text(path)
            elif parsed.isascii():
                text = parsed  # a byte a character already
            else:
                text = parsed.encode("utf-8", "surrogatepass").decode("latin-1")
            self.notes[("latin-1", path)] = text
        return text

    def _text(self, path: str) -> str:
        """A file's text as on disk, as Latin-1 (a byte a character)."""
        stamp = _stamp(path)
        return _read(stamp) if stamp else ""

    def value(self, cursor) -> int | None:
        """The integer an expression folds to, if it is a constant."""
        return self._remember("value", cursor, lambda: evaluate_int(self.ci, cursor))

    def binary_operator(self, cursor) -> str:
        """The operator of a binary operator cursor."""
        return self._remember("operator", cursor, lambda: binary_operator(self.ci, cursor))

    def unary_operator(self, cursor) -> str:
        return unary_operator(self.ci, cursor)

    def children(self, cursor) -> list:
        return self._remember("children", cursor, lambda: children(self.ci, cursor))

    def strip(self, cursor):
        """The expression under implicit conversions and parentheses (an
        unexposed expression wider than its child is no conversion: va_arg,
        say, which libclang shows the same way, stays)."""
        if cursor._kind_id not in STRIPPED_KINDS:
            return cursor  # most operands: nothing to strip, no call into libclang
        return self._remember("strip", cursor, lambda: strip(self.ci, cursor))

    def callee(self, call):
        """The function a CALL_EXPR calls, or None (a call through a pointer)."""
        return self._remember("callee", call, lambda: self._one_cursor(callee(self.ci, call)))

    def _one_cursor(self, cursor):
        """One cursor object for each declaration asked for (a function called
        from a thousand places): what the bindings read of it once (its name,
        its place) is kept on that object."""
        if cursor is None:
            return None
        return self._cursors.setdefault(bytes(cursor), cursor)

    def callee_name(self, call) -> str:
        """The name of the function a CALL_EXPR calls ("" for a call through a pointer)."""
        function = self.callee(call)
        return function.spelling if function is not None else ""

    def calls_undeclared(self, call) -> bool:
        """A CALL_EXPR of a function clang declared on the spot: an implicit
        declaration stands where the function was first called, inside a
        function's body, where no header's prototype is."""
        callee = self.callee(call)
        return callee is not None and self._remember("declared on the spot", callee, lambda: self._on_the_spot(callee))

    def _on_the_spot(self, callee) -> bool:
        if callee.location.file is None:
            return False
        where = callee.location
        if where.is_in_system_header or callee.is_definition() or callee.spelling.startswith("__builtin"):
            return False  # a header's prototype, a function of the file, or one of clang's builtins
        spot = (where.file.name, where.line, where.column)
        return any(file == spot[0] and start < spot[1:] <= end for file, start, end in self._bodies())

    def _bodies(self) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        """(file, after the name, end) of each of the file's function definitions, worked out once."""
        if "bodies" not in self.notes:
            spans = []
            for top in self.tops:
                if top.kind == self.ci.CursorKind.FUNCTION_DECL and top.is_definition() and top.location.file:
                    name, end = top.location, top.extent.end
                    spans.append((name.file.name, (name.line, name.column), (end.line, end.column)))
            self.notes["bodies"] = spans
        return self.notes["bodies"]

    def arguments(self, call) -> list:
        return self._remember("arguments", call, lambda: arguments(self.ci, call))

    def parent(self, cursor):
        """The node a node of the project's code is part of (the translation
        unit's cursor above a top-level declaration; None for a node no walk
        met). The walk knows every node's parent; a node outside it (asked
        before the walk, or of another parse) has its top-level declaration
        walked for it, once."""
        for walked in self.walks:
            found = walked.parent(cursor)
            if found is not None:
                return found
        top = self._index_around(cursor.location)
        return self.walks[-1].parent(cursor) if top is not None else None

    def conversions_around(self, location) -> list[tuple[tuple, object]]:
        """(extent, node) of every implicit conversion in the top-level
        declaration around `location`, in the order they were written.
        Inside a macro's expansion every node has the place of the macro's
        use, and this is how the one a diagnostic is about is found."""
        top = self._index_around(location)
        return self._conversions.get(identity(top), []) if top is not None else []

    def in_project_macro(self, location) -> bool:
        """The word at location is the name of one of the project's macros: its expansion starts there."""
        word = self._word_at(location)
        return bool(word) and bool(self._macro_index().get(word))

    def _index_around(self, location):
        """The top-level declaration around location, walked (once) for its
        nodes' parents and its implicit conversions."""
        top = self.top_around(location)
        if top is None or identity(top) in self._conversions:
            return top
        walked = walk(self.ci, self.tu, [top], kinds=[IMPLICIT_KIND])
        self.walks.append(walked)
        self._conversions[identity(top)] = [(_span(node.extent), node) for _, node, _, _ in walked.selected]
        return top

    def _remember(self, question: str, cursor, answer):
        """One answer per question and node for the whole unit: several rules
        ask the same of a node, and each question is a call into libclang. A
        node is known by the cursor's own words (kind and data pointers), as
        libclang compares cursors."""
        key = (question, *identity(cursor))
        known = self._answers.get(key, _UNKNOWN)
        if known is _UNKNOWN:
            known = self._answers[key] = answer()
        return known

    def knows(self, question: str, cursor, answer) -> None:
        """An answer found another way (the walk reads each operator it keeps), for _remember."""
        self._answers[(question, *identity(cursor))] = answer

    # ---------------------------------------------------------- telling

    def report(self, rule: Rule, cursor, message: str, fix: str | None = None, anchor: Anchor = None) -> None:
        """A finding of rule at cursor's extent. `anchor`: the node (or a
        function that finds it, asked only inside a macro's expansion) whose
        place says whether a macro's body made the finding: the conversion's
        destination, the cast, the call. When it was, the finding goes to the
        macro's definition, once for all its uses."""
        if self.lost_headers and any(self.calls_undeclared(n) for n in preorder(self.ci, cursor, CALLS)):
            return  # what clang took for an undeclared function's int may be the missing header's doing
        extent = cursor.extent
        start, end = extent.start, extent.end
        path = start.file.name if start.file else (cursor.location.file.name if cursor.location.file else "")
        end_line, end_column = (
            (end.line, end.column) if end.file and end.line >= start.line else (start.line, start.column)
        )
        location = Location(shown_path(path), start.line, start.column, end_line, end_column)
        self.add(rule, location, message, fix, anchor)

    def add(self, rule: Rule, location: Location, message: str, fix: str | None = None, anchor: Anchor = None) -> None:
        moved = self._in_macro(anchor) if anchor is not None else None
        if moved is not None:
            location, macro, use = moved
        finding = Finding(rule.id, rule.severity, location, message, fix or rule.fix, self.pair.labels)
        if moved is not None:
            # one finding per rule and place in the macro, whatever the types each use brings
            finding = next((f for f in self.expansions if f.rule == rule.id and f.location == location), finding)
            self.expansions.setdefault(finding, (macro, set()))[1].add(use)
        if finding not in self._told:  # a typedef'd record is visited as itself and inside its typedef
            self._told.add(finding)
            self.findings.append(finding)

    def _in_macro(self, anchor: Anchor) -> tuple[Location, str, tuple[str, int, int]] | None:
        """(the place in the macro's body, the macro's name, the use) when the
        anchor was made by one of the project's macros, else None."""
        node = anchor() if callable(anchor) else anchor
        if node is None or node.location.file is None:
            return None
        where = node.location
        word = self._word_at(where)
        defined = self._macro_index().get(word) if word else []
        if not defined or all(is_alias(m) for m in defined):
            return None  # not the project's macro, or only another name for a function
        arguments = arguments_at(self._lines(where.file.name), where.line, where.column)
        if node._kind_id == CALL_KIND:
            # a call whose function's name a macro makes (`#define CHECK_INVARIANT SORT_MAKE_STR(check_invariant)`):
            # the macro made the finding only if its body names what the call's arguments name
            passed = [n for argument in list(node.get_arguments()) for n in _names(self.ci, argument)]
            place = self._macro_index().place(word, passed, arguments, strict=True)
        else:
            place = self._macro_index().place(word, _names(self.ci, node), arguments)
        if place is None:
            return None
        location = Location(place.macro.path, place.line, place.column, place.line, place.end_column)
        return location, place.macro.name, (shown_path(where.file.name), where.line, where.column)

    def _macro_index(self) -> MacroIndex:
        if self._macros is None:
            self._macros = MacroIndex(lambda: (m for p in self._own_files() for m in self.definitions(p)))
        return self._macros

    def inclusions(self) -> list:
        """The unit's #includes (cparse.libclang.inclusions), read once."""
        if "inclusions" not in self.notes:
            self.notes["inclusions"] = inclusions(self.ci, self.tu)
        return self.notes["inclusions"]

    def _own_files(self) -> list[str]:
        """The unit's file and the project's headers it includes (not the system's)."""
        if "own files" in self.notes:
            return self.notes["own files"]
        files = {self.tu.spelling: None}
        for inclusion in self.inclusions():
            if inclusion.system:
                continue
            header = self.tu.get_file(inclusion.header)
            if not self.ci.SourceLocation.from_position(self.tu, header, 1, 1).is_in_system_header:
                files.setdefault(inclusion.header, None)
        self.notes["own files"] = list(files)
        return self.notes["own files"]


# What a file's text tells, worked out once per file and run (per worker
# process) instead of once per unit: libxml2's 100 units each include the
# same 50 project headers, and every unit asked each header the same
# questions. A file is known by its stat() stamp, so an edited one is read again.
FILES_REMEMBERED = 4096


def _stamp(path: str) -> tuple[str, int, int, int, int] | None:
    """What tells a file's content apart: its inode, size and times (None: unreadable)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return path, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


@functools.lru_cache(maxsize=FILES_REMEMBERED)
def _read(stamp: tuple[str, int, int, int, int]) -> str:
    try:
        with open(stamp[0], "rb") as source:
            return source.read().decode("latin-1")
    except OSError:
        return ""


@functools.lru_cache(maxsize=FILES_REMEMBERED * 4)
def _mentions(pattern: re.Pattern[str], stamp: tuple[str, int, int, int, int]) -> bool:
    return pattern.search(_read(stamp)) is not None


@functools.lru_cache(maxsize=FILES_REMEMBERED)
def _definitions(stamp: tuple[str, int, int, int, int], cwd: str) -> tuple:
    """A file's #defines, each with the path findings show (relative to cwd, which shown_path reads)."""
    return tuple(definitions(shown_path(stamp[0]), _read(stamp)))


def _names(ci, node) -> list[str]:
    """The variables, members and functions an expression names, in order."""
    return [n.spelling for n in preorder(ci, node, NAMING) if n.spelling]


def identity(cursor) -> tuple:
    """A node as libclang tells nodes apart: its kind and its data pointers.
    An expression or statement is its clang node (data[1]) whichever way it
    was reached (libclang leaves out the declaration around it, data[0], on
    some ways down)."""
    kind = cursor._kind_id
    if 100 <= kind < 300:  # CXCursor_FirstExpr .. CXCursor_LastStmt
        return (kind, cursor.xdata, cursor.data[1])
    return (kind, cursor.xdata, cursor.data[0], cursor.data[1], cursor.data[2])


def bare(spelling: str) -> str:
    """A type's name without qualifiers or a leading namespace: `const std::time_t` -> `time_t`."""
    name = spelling.strip()
    for prefix in ("const ", "volatile "):
        name = name.removeprefix(prefix)
    return name.removeprefix("::").removeprefix("std::")


def _span(extent) -> tuple[tuple[int, int], tuple[int, int]]:
    return (extent.start.line, extent.start.column), (extent.end.line, extent.end.column)


def _inside(regions: list[tuple[int, int]], firsts: list[int], line: int) -> bool:
    """line lies in one of the regions (the preprocessor's skipped ranges: apart
    from each other), sorted by their first line (firsts: those first lines)."""
    index = bisect.bisect_right(firsts, line) - 1
    return index >= 0 and regions[index][0] <= line <= regions[index][1]
