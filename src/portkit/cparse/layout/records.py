"""Walks a translation unit: every struct, union and class defined in the
user's files (not system headers), with size, alignment, each field's offset
and size, bit-fields, padding holes, anonymous members and C++ bases."""

from __future__ import annotations

from dataclasses import dataclass, field

from portkit.cparse.libclang import is_virtual_base

TIME_TYPEDEFS = (
    "time_t",
    "off_t",
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "wchar_t",
    "suseconds_t",
    "clock_t",
    "ino_t",
    "blkcnt_t",
)


@dataclass
class Field:
    name: str  # dotted for members of unnamed records: "u.d"; "" for an unnamed bit-field
    type: str
    offset: int  # bytes
    size: int  # bytes of the field's type (the storage unit for a bit-field)
    align: int
    bit_offset: int | None = None  # from the record's start, bit-fields only
    bit_width: int | None = None
    reason_key: str = ""  # what decides the field's size: "long", "pointer", "time_t", ...
    unit: int = 0  # size of that type (an array's element), bytes
    empty: bool = False  # an empty base or [[no_unique_address]] member: occupies no bytes

    def to_json(self) -> dict:
        doc = {"name": self.name, "type": self.type, "offset": self.offset, "size": self.size, "align": self.align}
        if self.bit_width is not None:
            doc |= {"bit_offset": self.bit_offset, "bit_width": self.bit_width}
        return doc


@dataclass
class Base:
    """A direct base class, before its offset is known."""

    type: str  # fully qualified: "ns::Base"
    reason_key: str  # "struct ns::Base"
    virtual: bool
    size: int
    align: int
    empty: bool


@dataclass
class Hole:
    after: str  # the field before the hole ("" at the start), or "(end)" for tail padding
    offset_bits: int
    bits: int


@dataclass
class Record:
    name: str
    kind: str  # struct, union, class
    file: str
    line: int
    size: int | None  # None: incomplete (an unresolved type inside)
    align: int | None
    fields: list[Field] = field(default_factory=list)
    holes: list[Hole] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    problem: str | None = None
    unplaced: list[Base] = field(default_factory=list)  # bases whose offsets are not (yet) known
    unlabelled_start: bool = False  # MSVC's vfptr/vbptr before the first field: no row, no hole

    def in_tail_padding(self) -> dict[str, str]:
        """Members placed inside a base subobject's sizeof -> that base (the
        Itanium ABI reuses a non-POD base's tail padding)."""
        bases = [f for f in self.fields if f.name.startswith("(base ")]
        return {
            f.name: b.type
            for f in self.fields
            if not f.name.startswith("(")
            for b in bases
            if b.offset < f.offset < b.offset + b.size
        }

    def to_json(self) -> dict:
        """The record in the document (docs/formats.md); built by hand, as
        dataclasses.asdict's deep copies were most of a large report's time."""
        return {
            "name": self.name,
            "kind": self.kind,
            "file": self.file,
            "line": self.line,
            "size": self.size,
            "align": self.align,
            "fields": [f.to_json() for f in self.fields],
            "holes": [{"after": h.after, "offset_bits": h.offset_bits, "bits": h.bits} for h in self.holes],
            "bases": list(self.bases),
            "problem": self.problem,
            "unplaced_bases": [b.type for b in self.unplaced],
            "in_tail_padding": self.in_tail_padding(),
        }


def reason_key(ci, t) -> tuple[str, int]:
    """The type that decides a field's size and alignment, in words, and its size."""
    while True:
        if t.kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
            continue
        if t.kind == ci.TypeKind.TYPEDEF:
            name = t.get_declaration().spelling
            if name in TIME_TYPEDEFS:
                return name, t.get_size()
            t = t.get_declaration().underlying_typedef_type
            continue
        if t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            t = t.element_type
            continue
        break
    kinds = {
        ci.TypeKind.LONG: "long",
        ci.TypeKind.ULONG: "long",
        ci.TypeKind.LONGLONG: "long long",
        ci.TypeKind.ULONGLONG: "long long",
        ci.TypeKind.POINTER: "pointer",
        ci.TypeKind.DOUBLE: "double",
        ci.TypeKind.LONGDOUBLE: "long double",
        ci.TypeKind.ENUM: "enum",
        ci.TypeKind.WCHAR: "wchar_t",
        ci.TypeKind.BLOCKPOINTER: "pointer",
        ci.TypeKind.MEMBERPOINTER: "member pointer",
    }
    if t.kind in kinds:
        return kinds[t.kind], t.get_size()
    if t.kind == ci.TypeKind.RECORD:
        name = t.spelling.removeprefix("const ")
        if not name.startswith(("struct ", "union ")):  # C++ spells a class without its keyword
            name = f"{_kind(ci, t.get_declaration())} {name}"
        return name, t.get_size()
    return t.get_canonical().spelling, t.get_size()


def collect(ci, tu, pointer_size: int, itanium: bool = True) -> list[Record]:
    """Every record defined outside system headers, in source order.
    itanium: the C++ ABI of every target but MSVC, which decides where the vptr is."""
    records: list[Record] = []
    seen: set[str] = set()

    def visit(cursor) -> None:
        for child in cursor.get_children():
            loc = child.location
            if loc.file is None or loc.is_in_system_header:
                continue
            if child.kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC):
                visit(child)
            elif child.kind in RECORD_KINDS(ci) and child.is_definition():
                if not _unnamed(child.type.spelling):
                    key = child.type.spelling
                    if key not in seen:
                        seen.add(key)
                        records.append(describe(ci, child, pointer_size, itanium))
                visit(child)  # named records nested inside (C: file scope names)
            elif child.kind == ci.CursorKind.TYPEDEF_DECL:
                visit(child)

    visit(tu.cursor)
    return records


def RECORD_KINDS(ci):
    return (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL, ci.CursorKind.CLASS_DECL)


def _unnamed(spelling: str) -> bool:
    return "(unnamed" in spelling or "(anonymous" in spelling


def _kind(ci, cursor) -> str:
    return {ci.CursorKind.UNION_DECL: "union", ci.CursorKind.CLASS_DECL: "class"}.get(cursor.kind, "struct")


def describe(ci, cursor, pointer_size: int, itanium: bool = True) -> Record:
    t = cursor.type
    size, align = t.get_size(), t.get_align()
    rec = Record(
        name=t.spelling.removeprefix("const "),
        kind=_kind(ci, cursor),
        file=cursor.location.file.name,
        line=cursor.location.line,
        size=size if size >= 0 else None,
        align=align if align >= 0 else None,
    )
    if rec.size is None:
        rec.problem = "incomplete: a member's type did not resolve"
        return rec
    rec.bases = [b.type.spelling for b in _bases(ci, cursor)]
    for bt, virtual in _subobject_bases(ci, cursor):
        empty = _empty(ci, bt.get_declaration())
        rec.unplaced.append(Base(bt.spelling, reason_key(ci, bt)[0], virtual, bt.get_size(), bt.get_align(), empty))
    rec.unlabelled_start = not itanium and any(b.virtual for b in rec.unplaced)
    if _own_vptr(ci, cursor) and not rec.unlabelled_start:  # MSVC's vbptr placement is not modelled
        rec.fields.append(
            Field("(vptr)", "vtable pointer", 0, pointer_size, pointer_size, None, None, "pointer", pointer_size)
        )
    _fields(ci, cursor, t, "", 0, rec)
    if rec.problem:  # clang lays out an invalid record arbitrarily: report none of it
        rec.size = rec.align = None
        rec.fields = []
        return rec
    rec.holes = holes(rec)
    return rec


def _bases(ci, cursor) -> list:
    return [c for c in cursor.get_children() if c.kind == ci.CursorKind.CXX_BASE_SPECIFIER]


def _declaration(base_specifier):
    return base_specifier.type.get_canonical().get_declaration()


def _subobject_bases(ci, cursor) -> list[tuple]:
    """(type, virtual) of the bases the complete object holds: the direct
    non-virtual ones, then every virtual base of the hierarchy, once each
    (they sit in the most-derived object)."""
    direct = [(b.type.get_canonical(), is_virtual_base(ci, b)) for b in _bases(ci, cursor)]
    out = [(t, False) for t, virtual in direct if not virtual]
    virtual: dict[str, object] = {}

    def gather(decl) -> None:
        for b in _bases(ci, decl):
            t = b.type.get_canonical()
            if is_virtual_base(ci, b):
                virtual.setdefault(t.spelling, t)
            gather(t.get_declaration())

    gather(cursor)
    return out + [(t, True) for t in virtual.values()]


def _dynamic(ci, cursor) -> bool:
    """Has a vtable: virtual functions of its own or a base's, or a virtual base."""
    kinds = (ci.CursorKind.CXX_METHOD, ci.CursorKind.DESTRUCTOR)
    if any(c.kind in kinds and c.is_virtual_method() for c in cursor.get_children()):
        return True
    return any(is_virtual_base(ci, b) or _dynamic(ci, _declaration(b)) for b in _bases(ci, cursor))


def _own_vptr(ci, cursor) -> bool:
    """Itanium C++ ABI: a dynamic class shares the vptr of its first non-virtual
    dynamic base (its primary base); without one it has its own, at offset 0."""
    if not _dynamic(ci, cursor):
        return False
    return not any(not is_virtual_base(ci, b) and _dynamic(ci, _declaration(b)) for b in _bases(ci, cursor))


def _empty(ci, cursor) -> bool:
    """An empty class (no data, no vtable): as a base or [[no_unique_address]] member it takes no bytes."""
    if cursor.kind not in RECORD_KINDS(ci) or _dynamic(ci, cursor):
        return False
    if any(c.kind == ci.CursorKind.FIELD_DECL for c in cursor.get_children()):
        return False
    return all(_empty(ci, _declaration(b)) for b in _bases(ci, cursor))


def _no_unique_address(ci, field_cursor) -> bool:
    return any(
        c.kind == ci.CursorKind.UNEXPOSED_ATTR and any("no_unique_address" in tok.spelling for tok in c.get_tokens())
        for c in field_cursor.get_children()
    )


def _fields(ci, cursor, t, prefix: str, base_bits: int, rec: Record) -> None:
    member_types = {c.type.get_declaration().hash for c in cursor.get_children() if c.kind == ci.CursorKind.FIELD_DECL}
    for child in cursor.get_children():
        if child.kind == ci.CursorKind.FIELD_DECL:
            off = child.get_field_offsetof()
            if off < 0:
                rec.problem = f"incomplete: field {prefix}{child.spelling} did not resolve"
                continue
            ft = child.type
            decl = ft.get_canonical().get_declaration()
            if decl.kind in RECORD_KINDS(ci) and _unnamed(ft.get_canonical().spelling) and child.spelling:
                # a named member of an unnamed record type: its fields appear as "member.field"
                _fields(ci, decl, ft, f"{prefix}{child.spelling}.", base_bits + off, rec)
                continue
            size, align = ft.get_size(), ft.get_align()
            f = Field(
                name=prefix + child.spelling,
                type=ft.spelling,
                offset=(base_bits + off) // 8,
                size=max(size, 0),
                align=max(align, 0),
            )
            if _no_unique_address(ci, child):
                f.type = f"[[no_unique_address]] {ft.spelling}"
                f.empty = _empty(ci, decl)
            f.reason_key, f.unit = reason_key(ci, ft)
            if child.is_bitfield():
                f.bit_offset = base_bits + off
                f.bit_width = child.get_bitfield_width()
            rec.fields.append(f)
        elif (
            child.kind in RECORD_KINDS(ci)
            and child.is_definition()
            and child.hash not in member_types
            and _unnamed(child.type.spelling)  # an anonymous struct/union member
        ):
            inner = _first_named_field(ci, child)
            if inner is None:
                continue
            start = t.get_offset(inner) - child.type.get_offset(inner)
            _fields(ci, child, child.type, prefix, base_bits + start, rec)


def _first_named_field(ci, cursor) -> str | None:
    for child in cursor.get_children():
        if child.kind == ci.CursorKind.FIELD_DECL and child.spelling:
            return child.spelling
        if child.kind in RECORD_KINDS(ci):
            name = _first_named_field(ci, child)
            if name:
                return name
    return None


def holes(rec: Record) -> list[Hole]:
    """Padding: bits no field covers (a union's members all start at 0)."""
    if rec.size is None or rec.kind == "union":
        end = max((_end_bits(f) for f in rec.fields), default=0) if rec.size else 0
        return [Hole("(end)", end, rec.size * 8 - end)] if rec.size and end < rec.size * 8 else []
    out: list[Hole] = []
    end, last = 0, ""
    if rec.unplaced or rec.unlabelled_start:  # what comes first is not known: count holes from the fields on
        end = min((_start_bits(f) for f in rec.fields), default=rec.size * 8)
        last = "(bases)"
    for f in sorted(rec.fields, key=lambda f: (_start_bits(f), f.bit_offset is None)):
        if f.bit_width == 0 or f.empty:
            continue
        start = _start_bits(f)
        if start > end:
            out.append(Hole(last, end, start - end))
        end = max(end, _end_bits(f))
        last = f.name
    if rec.size * 8 > end:
        out.append(Hole("(end)", end, rec.size * 8 - end))
    return out


def _start_bits(f: Field) -> int:
    return f.bit_offset if f.bit_offset is not None else f.offset * 8


def _end_bits(f: Field) -> int:
    if f.bit_width is not None:
        return f.bit_offset + f.bit_width
    return (f.offset + f.size) * 8
