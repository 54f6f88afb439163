"""How wide a type is in each model, seen through typedefs: the question every
scan rule asks ("does this conversion lose bits on the target but not at home?")."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.scan.models import ModelPair

SIGNED = {"SCHAR", "CHAR_S", "SHORT", "INT", "LONG", "LONGLONG", "INT128", "WCHAR"}
UNSIGNED = {"BOOL", "UCHAR", "CHAR_U", "USHORT", "UINT", "ULONG", "ULONGLONG", "UINT128", "CHAR16", "CHAR32"}
FLOATS = {"FLOAT", "DOUBLE", "LONGDOUBLE"}
POINTERS = {"POINTER", "BLOCKPOINTER", "NULLPTR"}
# Types libclang can size. Others (the type clang gives a builtin function named without a call, say)
# can crash clang_Type_getSizeOf with an illegal instruction: never ask.
SIZABLE = SIGNED | UNSIGNED | FLOATS | POINTERS | {"ENUM", "RECORD", "CONSTANTARRAY", "VECTOR", "COMPLEX"}


@dataclass(frozen=True)
class Width:
    """A type's size in bytes in the source and the target model (None: not a
    scalar portkit can size, e.g. a struct), and what kind of value it holds."""

    spelling: str
    source: int | None
    target: int | None
    kind: str  # "signed", "unsigned", "pointer", "float", "other"

    @property
    def integer(self) -> bool:
        return self.kind in ("signed", "unsigned")

    @property
    def known(self) -> bool:
        return self.source is not None and self.target is not None

    @property
    def grows(self) -> bool:
        """Wider on the target than at home: long and pointers from ILP32 to LP64."""
        return self.known and self.target > self.source

    def describe(self, pair: ModelPair) -> str:
        """`'long' (4 bytes in ILP32 (arm), 8 in LP64 (aarch64))` or `'int' (4 bytes)`."""
        if self.source == self.target:
            return f"'{self.spelling}' ({self.target} bytes)"
        return f"'{self.spelling}' ({self.source} bytes in {pair.source.label}, {self.target} in {pair.target.label})"


def loses_bits_only_on_target(value: Width, into: Width) -> bool:
    """A conversion of value into `into` that keeps every bit at home and drops
    some on the target: the porting defect. One that loses bits in both
    models is an old bug, not a porting one."""
    if not (value.known and into.known):
        return False
    return into.target < value.target and into.source >= value.source


def narrower_than_pointer(integer: Width, pointer: Width) -> bool:
    """An integer as wide as a pointer at home and narrower on the target (int, and long on LLP64)."""
    if not (integer.integer and integer.known and pointer.known):
        return False
    return integer.target < pointer.target and integer.source >= pointer.source


def differs_only_on_target(a: Width, b: Width) -> bool:
    """Two types of one width at home and of two on the target (a directive and its argument)."""
    return a.known and b.known and a.target != b.target and a.source == b.source


def width(ci, pair: ModelPair, t) -> Width:
    """The Width of a libclang Type of the target parse."""
    spelling = t.spelling
    canonical = t.get_canonical()
    if canonical.kind.name not in SIZABLE:
        return Width(spelling, None, None, "other")
    kind = _kind(ci, canonical)
    size = canonical.get_size()
    target = size if size > 0 else None
    return Width(spelling, _source_size(ci, pair, t, depth=0), target, kind)


def _kind(ci, canonical) -> str:
    name = canonical.kind.name
    if name == "ENUM":
        return _kind(ci, canonical.get_declaration().enum_type.get_canonical())
    if name in SIGNED:
        return "signed"
    if name in UNSIGNED:
        return "unsigned"
    if name in POINTERS:
        return "pointer"
    if name in FLOATS:
        return "float"
    return "other"


def _source_size(ci, pair: ModelPair, t, depth: int) -> int | None:
    """t's size in the source model: C library typedefs by the source ABI's
    headers, the project's typedefs through their definitions, builtins and
    pointers by the source ABI's sizes, constant arrays by their elements."""
    if depth > 64:  # a typedef chain this long is a loop in broken code
        return None
    kind = t.kind
    if kind == ci.TypeKind.ELABORATED:
        return _source_size(ci, pair, t.get_named_type(), depth + 1)
    if kind == ci.TypeKind.TYPEDEF:
        decl = t.get_declaration()
        if decl.location.is_in_system_header and decl.spelling in pair.source.typedefs:
            return pair.source.typedefs[decl.spelling]
        return _source_size(ci, pair, decl.underlying_typedef_type, depth + 1)
    if kind in (ci.TypeKind.POINTER, ci.TypeKind.BLOCKPOINTER):
        return pair.source.builtins.get("POINTER")
    if kind == ci.TypeKind.ENUM:
        return _source_size(ci, pair, t.get_declaration().enum_type, depth + 1)
    if kind == ci.TypeKind.CONSTANTARRAY:
        element = _source_size(ci, pair, t.element_type, depth + 1)
        return element * t.element_count if element is not None else None
    if kind.name in ("ATTRIBUTED", "UNEXPOSED"):
        canonical = t.get_canonical()
        return None if canonical == t else _source_size(ci, pair, canonical, depth + 1)
    return pair.source.builtins.get(kind.name)


# Canonical spellings clang uses in its messages, by TypeKind name.
SPELLED = {
    "char": "CHAR_S",
    "signed char": "SCHAR",
    "unsigned char": "UCHAR",
    "short": "SHORT",
    "unsigned short": "USHORT",
    "int": "INT",
    "unsigned int": "UINT",
    "long": "LONG",
    "unsigned long": "ULONG",
    "long long": "LONGLONG",
    "unsigned long long": "ULONGLONG",
    "__int128": "INT128",
    "unsigned __int128": "UINT128",
    "float": "FLOAT",
    "double": "DOUBLE",
    "long double": "LONGDOUBLE",
    "_Bool": "BOOL",
    "bool": "BOOL",
    "wchar_t": "WCHAR",
}


def width_named(pair: ModelPair, spelling: str, aka: str | None = None) -> Width:
    """The Width of a type as a clang message names it (`'size_t' (aka 'unsigned
    long')`): the C library's typedefs by each model's headers, builtins and
    pointers by each model's sizes; a project's typedef through its aka."""
    name = spelling.removeprefix("const ").removeprefix("volatile ").strip()
    if name.endswith("*"):
        return Width(spelling, pair.source.builtins.get("POINTER"), pair.target.builtins.get("POINTER"), "pointer")
    if name in pair.source.typedefs and name in pair.target.typedefs:
        kind = _kind_named(aka or "")
        return Width(spelling, pair.source.typedefs[name], pair.target.typedefs[name], kind)
    kind_name = SPELLED.get(name)
    if kind_name is None:
        return width_named(pair, aka) if aka and aka != spelling else Width(spelling, None, None, "other")
    return Width(spelling, pair.source.builtins.get(kind_name), pair.target.builtins.get(kind_name), _kind_named(name))


def _kind_named(spelling: str) -> str:
    name = spelling.strip()
    if name.endswith("*"):
        return "pointer"
    kind_name = SPELLED.get(name)
    if kind_name in SIGNED:
        return "signed"
    if kind_name in UNSIGNED:
        return "unsigned"
    if kind_name in FLOATS:
        return "float"
    return "other"
