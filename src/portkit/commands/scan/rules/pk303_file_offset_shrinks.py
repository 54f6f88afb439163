"""PK303: file offsets and sizes in a type that is 64 bits at home and 32 on the target."""

from __future__ import annotations

from dataclasses import dataclass

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import LIBRARY_RESULTS, Unit, identity
from portkit.core.output import count
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK303",
    name="file-offset-shrinks",
    severity=Severity.WARNING,
    family="Implicit narrowing",
    summary=(
        "A file offset or size handed to or taken from the system in off_t or struct stat's st_size, "
        "which are 64 bits in the source data model and 32 on the target."
    ),
    why=(
        "POSIX keeps file offsets and sizes in off_t (struct stat's st_size is one). On 64-bit Linux "
        "it is 8 bytes, so code written there handles files of any size. Built for 64-bit Windows "
        "(MinGW's off_t, ftello() and struct stat are a 32-bit long, as MSVC's lseek() and _stat are) "
        "or for 32-bit Linux without _FILE_OFFSET_BITS=64, the same code keeps offsets in 4 bytes: "
        "no conversion in the code narrows, the type itself shrank. A seek past 2 GiB goes to a "
        "wrapped offset, a position or size of 2 GiB or more does not fit, and stat() of such a file "
        "fails (EOVERFLOW on 32-bit Linux) or gives a wrong size. One finding per function, at its "
        "first such call or st_size, with the count of the others: one build flag or one change of "
        "API fixes them together. Not reported: constant offsets (`lseek(fd, 0, SEEK_SET)`), a "
        "result only compared with a constant (an error check), off_t passed between the project's "
        "own functions (reported where it reaches the system), and on Windows a stat() in a function "
        "that never reads st_size (MinGW's stat() cuts the size rather than failing)."
    ),
    wrong="struct stat st;\nfstat(fd, &st);\nlength = st.st_size;\nlseek(fd, (off_t)pos, SEEK_SET);",
    right=(
        "/* -D_FILE_OFFSET_BITS=64 (MinGW-w64, 32-bit Linux), or on MSVC: */\n"
        "struct _stat64 st;\n_fstat64(fd, &st);\nlength = st.st_size;\n_lseeki64(fd, pos, SEEK_SET);"
    ),
    fix="Build with -D_FILE_OFFSET_BITS=64, which makes off_t, struct stat and the functions that take "
    "them 64-bit; where that flag does not exist (MSVC), use the 64-bit API: _lseeki64, "
    "_fseeki64/_ftelli64, _stat64/_fstat64 with struct _stat64.",
)

# The C library's names for the file offset type (POSIX's off_t; glibc's and
# MinGW's internal names for it), which struct stat's st_size has too.
OFFSET_TYPEDEFS = frozenset({"off_t", "__off_t", "_off_t"})
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
WRAPPERS = frozenset({"UNEXPOSED_EXPR", "PAREN_EXPR", "CSTYLE_CAST_EXPR"})
INT32 = range(-(2**31), 2**31)
SITES = "PK303 sites"


@dataclass(frozen=True)
class Site:
    """One place where a file offset crosses between the code and the system."""

    line: int
    column: int
    node: object
    what: str  # the message: what the code does there, and what breaks
    fills: bool = False  # a call that fills a struct stat (not a use of its st_size)


def shrinks_here(unit: Unit) -> bool:
    """off_t is narrower on the target than at home (LP64 to LLP64 or ILP32):
    without that nothing here can shrink, and the walk is spared."""
    home, there = unit.pair.source.typedefs.get("off_t"), unit.pair.target.typedefs.get("off_t")
    return home is not None and there is not None and there < home


def on_call(unit: Unit, call, parent) -> None:
    function = unit.callee(call)
    if function is None:
        return
    name = unit.spelled(call) or function.spelling  # fstat as written, not the _fstat64i32 macros make of it
    home = unit.pair.source.typedefs["off_t"]
    for argument in unit.arguments(call):
        filled = _stat_filled(unit, argument)
        if filled is not None:
            record, size, inode = filled
            what = f"{name}() fills '{record}', whose st_size is {_sizes(unit, home, size)}"
            if _windows(unit):
                broken = "for a file of 2 GiB or more st_size comes out wrong"
            elif inode:
                broken = "for a file of 2 GiB or more, or one whose inode number passes 2^32, the call fails"
                broken += " (EOVERFLOW)"
            else:
                broken = "for a file of 2 GiB or more the call fails (EOVERFLOW)"
            _note(unit, call, f"{what}: {broken}", fills=True)
            return
    if not function.location.is_in_system_header:
        return  # off_t between the project's own functions: reported where it reaches the system
    parameters = list(function.type.argument_types()) if function.type.kind.name == "FUNCTIONPROTO" else []
    for index, argument in enumerate(unit.arguments(call)):
        declared = [parameters[index]] if index < len(parameters) else []
        shrunk = next((t for t in (unit.strip(argument).type, *declared) if _shrunk_offset(unit, t, home)), None)
        if shrunk is None or _constant(unit, argument):
            continue
        what = f"{name}() is handed a file offset in '{_spelled(shrunk)}' ({_sizes(unit, home, _size(shrunk))})"
        _note(unit, call, what + ": an offset of 2 GiB or more does not fit")
        return
    result = function.result_type
    named = LIBRARY_RESULTS.get(function.spelling) == "off_t" and 0 < _size(result) < home
    if (named or _shrunk_offset(unit, result, home)) and _value_used(unit, call, parent):
        spelled = "off_t" if named else _spelled(result)
        what = f"{name}() returns a file offset in '{spelled}' ({_sizes(unit, home, _size(result))})"
        _note(unit, call, what + ": a position or size of 2 GiB or more does not fit")


def on_member(unit: Unit, member, _parent) -> None:
    if member.spelling != "st_size":
        return
    field = member.referenced
    if field is None or not field.location.is_in_system_header:
        return
    home = unit.pair.source.typedefs["off_t"]
    size = _size(field.type)
    if not 0 < size < home:
        return
    record = field.semantic_parent.type.spelling if field.semantic_parent is not None else "struct stat"
    what = f"st_size of '{record}' is {_sizes(unit, home, size)}"
    _note(unit, member, what + ": the size of a file of 2 GiB or more does not fit")


def report(unit: Unit) -> None:
    """One finding per function: its first site, with the count of the others.
    On Windows a struct stat is filled with its size cut to 32 bits (MinGW's
    stat() converts from _stat64), not refused as on Linux: there a fill
    matters only in a function that reads st_size (`S_ISDIR` alone is fine)."""
    by_function: dict[tuple, list[Site]] = {}
    for top, site in unit.notes.get(SITES, []):
        by_function.setdefault(top, []).append(site)
    for sites in by_function.values():
        if _windows(unit) and all(s.fills for s in sites):
            continue
        first, *others = sorted(sites, key=lambda s: (s.line, s.column))
        more = f"; {count(len(others), 'more file-offset use')} in this function" if others else ""
        unit.report(RULE, first.node, first.what + more, fix=_fix(unit), anchor=first.node)


def _note(unit: Unit, node, what: str, fills: bool = False) -> None:
    place = node.location
    top = unit.top_around(place)
    key = identity(top) if top is not None else ("file", place.file.name if place.file else "")
    unit.notes.setdefault(SITES, []).append((key, Site(place.line, place.column, node, what, fills)))


def _windows(unit: Unit) -> bool:
    return "mingw" in unit.pair.target.abi.triple or "windows" in unit.pair.target.abi.clang_triple


def _stat_filled(unit: Unit, argument) -> tuple[str, int, bool] | None:
    """(the record's name, its st_size's bytes on the target, whether its
    st_ino shrank too) when argument points (not const) at a C library
    struct whose st_size shrinks: the call fills a struct stat."""
    t = unit.strip(argument).type.get_canonical()
    if t.kind != unit.ci.TypeKind.POINTER:
        return None
    pointee = t.get_pointee()
    if pointee.is_const_qualified() or pointee.kind != unit.ci.TypeKind.RECORD:
        return None
    key = ("PK303 record", pointee.spelling)
    if key not in unit.notes:
        unit.notes[key] = _shrinking_stat(unit, pointee)
    found = unit.notes[key]
    return (pointee.spelling, *found) if found else None


def _shrinking_stat(unit: Unit, record) -> tuple[int, bool] | None:
    """For a C library record whose st_size is narrower than home's off_t:
    that size, and whether st_ino is narrower than home's ino_t (stat() on
    32-bit Linux refuses a number it cannot store as well); else None."""
    declaration = record.get_declaration()
    if declaration is None or not declaration.location.is_in_system_header:
        return None
    sizes = {f.spelling: _size(f.type) for f in record.get_fields() if f.spelling in ("st_size", "st_ino")}
    size = sizes.get("st_size", 0)
    if not 0 < size < unit.pair.source.typedefs["off_t"]:
        return None
    return size, 0 < sizes.get("st_ino", 0) < unit.pair.source.typedefs.get("ino_t", 0)


def _shrunk_offset(unit: Unit, t, home: int) -> bool:
    """t is the C library's file offset type (through the project's typedefs
    of it, such as less's POSITION) and narrower on the target than at home."""
    return 0 < _size(t) < home and _offset_typedef(unit, t) is not None


def _offset_typedef(unit: Unit, t) -> str | None:
    ci = unit.ci
    for _ in range(32):  # a typedef chain this long is a loop in broken code
        if t.kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
        elif t.kind == ci.TypeKind.TYPEDEF:
            declaration = t.get_declaration()
            if declaration.spelling in OFFSET_TYPEDEFS and declaration.location.is_in_system_header:
                return declaration.spelling
            t = declaration.underlying_typedef_type
        else:
            return None
    return None


def _spelled(t) -> str:
    """The type as the code names it ('POSITION', 'off_t'); the C library's
    own names for off_t ('__off_t', '_off_t') as POSIX names it."""
    spelled = t.spelling.removeprefix("const ").strip()
    return "off_t" if spelled in OFFSET_TYPEDEFS else spelled


def _size(t) -> int:
    size = t.get_canonical().get_size()
    return size if size > 0 else 0


def _sizes(unit: Unit, home: int, there: int) -> str:
    """`8 bytes in LP64 (aarch64), 4 in LLP64 (mingw64)`."""
    pair = unit.pair
    return f"{home} bytes in {pair.source.label}, {there} in {pair.target.label}"


def _constant(unit: Unit, argument) -> bool:
    """An offset written as a number that fits in 32 bits (`lseek(fd, 0, SEEK_SET)`)."""
    value = unit.value(unit.strip(argument))
    return value is not None and value in INT32


def _value_used(unit: Unit, call, parent) -> bool:
    """The call's result is kept or computed with, not dropped or only
    compared with a constant (`if (lseek(...) == -1)`: an error check)."""
    node, above = call, parent
    while above is not None and above.kind.name in WRAPPERS:
        node, above = above, unit.parent(above)
    if above is None or above.kind.name in ("COMPOUND_STMT", "CASE_STMT", "DEFAULT_STMT", "LABEL_STMT"):
        return False
    if above.kind.name == "BINARY_OPERATOR" and unit.binary_operator(above) in COMPARISONS:
        others = [c for c in unit.children(above) if identity(c) != identity(node)]
        return not (others and unit.value(unit.strip(others[0])) is not None)
    return True


def _fix(unit: Unit) -> str:
    target = unit.pair.target.abi
    if _windows(unit):
        return (
            "Build with -D_FILE_OFFSET_BITS=64 (MinGW-w64 then makes off_t, struct stat, lseek and "
            "fseeko/ftello 64-bit); with MSVC, use _lseeki64, _fseeki64/_ftelli64 and _stat64/_fstat64 "
            "with struct _stat64."
        )
    return (
        f"Build with -D_FILE_OFFSET_BITS=64 (autoconf's AC_SYS_LARGEFILE): off_t, struct stat and the "
        f"functions that take them are then 64-bit on {target.name} too."
    )


CHECK = Check(
    RULE,
    applies=shrinks_here,
    nodes={"CALL_EXPR": on_call, "MEMBER_REF_EXPR": on_member},
    whole=report,
)
