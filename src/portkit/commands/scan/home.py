"""The same translation unit as the source ABI sees it (the code's home),
parsed only when a rule asks, and no further than it asks: its directives
alone for what its preprocessor left out (a tenth of a parse of its
declarations: the #if branches are taken at the same lines); its declarations
(function bodies skipped, a quarter of a full parse) for record layouts
(layout's engine compares them); the whole of it for code that the target's
preprocessor drops (`#if defined(__arm__)` blocks, where 32-bit assembly and
intrinsics live)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from portkit.commands.scan.models import ModelPair
from portkit.cparse.layout.compare import differs, reasons
from portkit.cparse.layout.records import describe
from portkit.cparse.libclang import skipped_lines

RECORD_KINDS = ("STRUCT_DECL", "UNION_DECL", "CLASS_DECL")
# How much of the unit a parse of its home reads, fullest first
WHOLE, DECLARATIONS, DIRECTIVES = "whole", "declarations", "directives"


@dataclass
class Home:
    ci: object
    pair: ModelPair
    # parse(extent): the unit parsed for the source ABI, keeping the
    # preprocessor's record: WHOLE, its DECLARATIONS (function bodies
    # skipped), or its DIRECTIVES alone (cparse.directives); None if it does
    # not parse, or (DIRECTIVES) if its text cannot be cut down to them
    parse: Callable[[str], object | None]
    _parses: dict[str, object | None] = field(default_factory=dict)  # extent -> the parse
    _layouts: dict[str, tuple[str, str, str] | None] = field(default_factory=dict)

    def parsed(self):
        """The fullest parse made so far (None: none asked for, or it did not
        parse); what it read counts among the unit's headers (a parse of the
        directives reads the same headers)."""
        made = (self._parses.get(extent) for extent in (WHOLE, DECLARATIONS, DIRECTIVES))
        return next((tu for tu in made if tu is not None), None)

    def tu(self):
        """The whole unit, function bodies and all."""
        return self._made(WHOLE)

    def declarations(self):
        """The unit's declarations: the whole parse if made, else one without function bodies."""
        return self._parses[WHOLE] if WHOLE in self._parses else self._made(DECLARATIONS)

    def _made(self, extent: str):
        if extent not in self._parses:
            self._parses[extent] = self.parse(extent)
        return self._parses[extent]

    def left_out(self) -> list[tuple[int, int]]:
        """The regions (first, last line) of the unit's own file that the
        source ABI's preprocessor left out: from any parse made, else from
        one of the directives alone."""
        tu = self.parsed()
        if tu is None:
            tu = self._made(DIRECTIVES)
        if tu is None:
            tu = self.declarations()
        return skipped_lines(self.ci, tu, tu.spelling) if tu is not None else []

    def layout_change(self, declaration) -> tuple[str, str, str] | None:
        """For a record declaration of the target parse: (its name, "16 / 32
        bytes", why) when its layout differs between the models, else None."""
        name = declaration.type.spelling
        if name not in self._layouts:
            self._layouts[name] = self._compare(declaration, name)
        return self._layouts[name]

    def _compare(self, declaration, name: str) -> tuple[str, str, str] | None:
        tu = self.declarations()
        at_home = _find_record(self.ci, tu, name) if tu is not None else None
        if at_home is None:
            return None
        source, target = self.pair.source, self.pair.target
        before = describe(self.ci, at_home, source.builtins["POINTER"], "msvc" not in source.abi.triple)
        after = describe(self.ci, declaration, target.builtins["POINTER"], "msvc" not in target.abi.triple)
        if before.size is None or after.size is None or not differs([before, after]):
            return None
        why = reasons([before, after], [source.abi.name, target.abi.name])
        return name, f"{before.size} / {after.size} bytes", "; ".join(why[:3]) or "field offsets move"


def _find_record(ci, tu, name: str):
    """The definition of the record named `name` among a translation unit's declarations."""
    for cursor in tu.cursor.get_children():
        if cursor.kind.name in RECORD_KINDS and cursor.is_definition() and cursor.type.spelling == name:
            return cursor
        if cursor.kind == ci.CursorKind.TYPEDEF_DECL:
            inner = cursor.underlying_typedef_type.get_canonical().get_declaration()
            if inner.kind.name in RECORD_KINDS and inner.is_definition() and inner.type.spelling == name:
                return inner
    return None
