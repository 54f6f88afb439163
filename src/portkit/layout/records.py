"""Walks a translation unit: every struct, union and class defined in the
user's files (not system headers), with size, alignment, each field's offset
and size, bit-fields, padding holes, anonymous members and C++ bases."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

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

    def to_json(self) -> dict:
        doc = asdict(self)
        for f in doc["fields"]:
            del f["reason_key"], f["unit"]
            if f["bit_width"] is None:
                del f["bit_offset"], f["bit_width"]
        return doc


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
        return t.spelling.removeprefix("const "), t.get_size()
    return t.get_canonical().spelling, t.get_size()


def collect(ci, tu, pointer_size: int) -> list[Record]:
    """Every record defined outside system headers, in source order."""
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
                        records.append(describe(ci, child, pointer_size))
                visit(child)  # named records nested inside (C: file scope names)
            elif child.kind == ci.CursorKind.TYPEDEF_DECL:
                visit(child)

    visit(tu.cursor)
    return records


def RECORD_KINDS(ci):
    return (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL, ci.CursorKind.CLASS_DECL)


def _unnamed(spelling: str) -> bool:
    return "(unnamed" in spelling or "(anonymous" in spelling


def describe(ci, cursor, pointer_size: int) -> Record:
    t = cursor.type
    kind = {ci.CursorKind.UNION_DECL: "union", ci.CursorKind.CLASS_DECL: "class"}.get(cursor.kind, "struct")
    size, align = t.get_size(), t.get_align()
    rec = Record(
        name=t.spelling.removeprefix("const "),
        kind=kind,
        file=cursor.location.file.name,
        line=cursor.location.line,
        size=size if size >= 0 else None,
        align=align if align >= 0 else None,
    )
    if rec.size is None:
        rec.problem = "incomplete: a member's type did not resolve"
        return rec
    for child in cursor.get_children():
        if child.kind == ci.CursorKind.CXX_BASE_SPECIFIER:
            rec.bases.append(child.type.spelling)
    if not rec.bases and _virtual(ci, cursor):  # with bases the vptr may be a base's: not shown
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


def _virtual(ci, cursor) -> bool:
    kinds = (ci.CursorKind.CXX_METHOD, ci.CursorKind.DESTRUCTOR)
    return any(c.kind in kinds and c.is_virtual_method() for c in cursor.get_children())


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
    if rec.bases:  # base subobjects come first; libclang 18 gives no base offsets, so start at the own fields
        end = min((_start_bits(f) for f in rec.fields), default=rec.size * 8)
        last = "(bases)"
    for f in sorted(rec.fields, key=lambda f: (_start_bits(f), f.bit_offset is None)):
        if f.bit_width == 0:
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
