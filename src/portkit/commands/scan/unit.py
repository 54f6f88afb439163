"""One translation unit being scanned: what every rule's check is handed.

It holds the parse, the two models, and the findings made so far; rules ask
it for widths, values and source text, and report through it, so a rule file
holds only its own logic."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from portkit.commands.scan.models import ModelPair
from portkit.commands.scan.widths import Width, width, width_named
from portkit.cparse.layout.compare import differs, reasons
from portkit.cparse.layout.records import describe
from portkit.cparse.libclang import binary_operator, evaluate_int, unary_operator
from portkit.findings.model import Finding, Location, Rule


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
    tu: object  # its TranslationUnit, parsed for the target ABI
    pair: ModelPair
    source_tu: Callable[[], object] | None = None  # the same file parsed for the source ABI, on demand
    findings: list[Finding] = field(default_factory=list)
    _layouts: dict[str, tuple[str, str, str] | None] = field(default_factory=dict)
    _source: list = field(default_factory=list)
    _told: set[Finding] = field(default_factory=set)
    _typedefs: dict[str, object] = field(default_factory=dict)
    _last_operator: tuple = ()

    # ---------------------------------------------------------- asking

    def width(self, t) -> Width:
        return width(self.ci, self.pair, t)

    def width_of(self, cursor) -> Width:
        return width(self.ci, self.pair, cursor.type)

    def width_named(self, spelling: str, aka: str | None = None) -> Width:
        """The Width of a type as a clang message names it. A typedef name is
        found among this unit's declarations and followed through its chain
        (a project's `typedef uint64_t u64` stays 8 bytes at home); other
        names are builtins or pointers."""
        declaration = self._typedef(spelling)
        if declaration is not None:
            return width(self.ci, self.pair, declaration.type)
        return width_named(self.pair, spelling, aka)

    def typedef_chain(self, spelling: str) -> list[str]:
        """A typedef name and every typedef it is defined through: mytime_t, time_t, __time_t."""
        chain = [spelling]
        declaration = self._typedef(spelling)
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
            kind = self.ci.CursorKind.TYPEDEF_DECL
            self._typedefs.update((c.spelling, c) for c in self.tu.cursor.get_children() if c.kind == kind)
            self._typedefs.setdefault("", None)
        return self._typedefs.get(name)

    def value(self, cursor) -> int | None:
        """The integer an expression folds to, if it is a constant."""
        return evaluate_int(self.ci, cursor)

    def binary_operator(self, cursor) -> str:
        """The operator of a binary operator cursor; several rules ask of the same node, clang once."""
        last = self._last_operator
        if last and last[0] is cursor:
            return last[1]
        operator = binary_operator(self.ci, cursor)
        self._last_operator = (cursor, operator)
        return operator

    def unary_operator(self, cursor) -> str:
        return unary_operator(self.ci, cursor)

    def children(self, cursor) -> list:
        return list(cursor.get_children())

    def strip(self, cursor):
        """The expression under implicit conversions and parentheses. An
        unexposed expression wider than its child is no conversion (va_arg,
        say, which libclang shows the same way) and stays."""
        kinds = (self.ci.CursorKind.UNEXPOSED_EXPR, self.ci.CursorKind.PAREN_EXPR)
        while cursor.kind in kinds:
            inner = next(iter(cursor.get_children()), None)
            if inner is None:
                break
            if cursor.kind == self.ci.CursorKind.UNEXPOSED_EXPR and inner.extent != cursor.extent:
                break
            cursor = inner
        return cursor

    def callee_name(self, call) -> str:
        """The name of the function a CALL_EXPR calls ("" for a call through a pointer)."""
        ref = call.referenced
        return ref.spelling if ref is not None and ref.kind == self.ci.CursorKind.FUNCTION_DECL else ""

    def arguments(self, call) -> list:
        return list(call.get_arguments())

    def layout_change(self, declaration) -> tuple[str, str, str] | None:
        """For a record declaration: (its name, "16 / 32 bytes", why) when its
        layout differs between the models, by layout's engine on a parse of
        this file for the source ABI (made once, the first time it is asked)."""
        name = declaration.type.spelling
        if name not in self._layouts:
            self._layouts[name] = self._compare_layout(declaration, name)
        return self._layouts[name]

    def _compare_layout(self, declaration, name: str) -> tuple[str, str, str] | None:
        if self.source_tu is None:
            return None
        if not self._source:
            self._source.append(self.source_tu())
        source_tu = self._source[0]
        at_home = _find_record(self.ci, source_tu, name) if source_tu is not None else None
        if at_home is None:
            return None
        pair = self.pair
        before = describe(self.ci, at_home, pair.source.builtins["POINTER"], "msvc" not in pair.source.abi.triple)
        after = describe(self.ci, declaration, pair.target.builtins["POINTER"], "msvc" not in pair.target.abi.triple)
        if before.size is None or after.size is None or not differs([before, after]):
            return None
        why = reasons([before, after], [pair.source.abi.name, pair.target.abi.name])
        return name, f"{before.size} / {after.size} bytes", "; ".join(why[:3]) or "field offsets move"

    # ---------------------------------------------------------- telling

    def report(self, rule: Rule, cursor, message: str, fix: str | None = None) -> None:
        """A finding of rule at cursor's extent."""
        extent = cursor.extent
        start, end = extent.start, extent.end
        path = start.file.name if start.file else (cursor.location.file.name if cursor.location.file else "")
        end_line, end_column = (
            (end.line, end.column) if end.file and end.line >= start.line else (start.line, start.column)
        )
        self.add(rule, Location(shown_path(path), start.line, start.column, end_line, end_column), message, fix)

    def add(self, rule: Rule, location: Location, message: str, fix: str | None = None) -> None:
        finding = Finding(rule.id, rule.severity, location, message, fix or rule.fix, self.pair.labels)
        if finding not in self._told:  # a typedef'd record is visited as itself and inside its typedef
            self._told.add(finding)
            self.findings.append(finding)


def _find_record(ci, tu, name: str):
    """The definition of the record named `name` among a translation unit's declarations."""
    kinds = (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL, ci.CursorKind.CLASS_DECL)
    for cursor in tu.cursor.get_children():
        if cursor.kind in kinds and cursor.is_definition() and cursor.type.spelling == name:
            return cursor
        if cursor.kind == ci.CursorKind.TYPEDEF_DECL:
            inner = cursor.underlying_typedef_type.get_canonical().get_declaration()
            if inner.kind in kinds and inner.is_definition() and inner.type.spelling == name:
                return inner
    return None


def shown_path(path: str) -> str:
    """A path below the working directory as a relative one, others as they are."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
