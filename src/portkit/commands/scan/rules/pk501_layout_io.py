"""PK501: a record whose layout differs between the models read, written or copied as bytes."""

from __future__ import annotations

from portkit.commands.scan.check import Callees, Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK501",
    name="layout-io",
    severity=Severity.WARNING,
    family="Layout-sensitive I/O",
    summary="A struct whose size or field offsets differ between the two data models, written, read, "
    "sent, mapped or copied to or from a byte buffer as raw bytes.",
    why=(
        "fwrite(&rec, sizeof rec, 1, f) stores the in-memory layout. A record with a long, a pointer "
        "or a time_t in it has another size and other offsets on LP64, so files, messages and shared "
        "memory written by the 32-bit build cannot be read by the 64-bit one (the field report: "
        '"struct timeval" recorded to a file changes the file format). Only where bytes leave the process or '
        "come into it: files, sockets, message queues, shared memory, and copies to or from a byte buffer (a "
        "frame received, a ring). A memcpy of a struct into memory of the same program moves nothing across, "
        "and neither does a memcpy of a record that holds pointers into a byte buffer (an arena or a pool: "
        "no frame or file is made of addresses)."
    ),
    wrong="struct timeval tv;\ngettimeofday(&tv, NULL);\nfwrite(&tv, sizeof tv, 1, log);",
    right="struct { int64_t sec; int32_t usec; } rec = { tv.tv_sec, tv.tv_usec };\n"
    "fwrite(&rec, sizeof rec, 1, log);   /* or serialise each field */",
    fix="Give files, messages and shared memory a fixed-width layout (int32_t, int64_t, explicit padding) "
    "and convert to and from it, or serialise field by field.",
)

# Functions that move bytes out of the process or into it, by the index of their buffer argument.
BYTE_CALLS = {
    "fwrite": 0,
    "fread": 0,
    "write": 1,
    "read": 1,
    "pwrite": 1,
    "pread": 1,
    "send": 1,
    "recv": 1,
    "sendto": 1,
    "recvfrom": 1,
    "msgsnd": 1,
    "msgrcv": 1,
}
# Copies within memory: bytes leave the process only when the other side is a
# byte buffer (a frame received, a ring in shared memory), not another object.
COPIES = frozenset({"memcpy", "memmove"})
# Calls whose result is memory other processes see, taken as a record pointer.
MAPPINGS = frozenset({"mmap", "mmap64", "shmat"})
BYTE_KINDS = frozenset({"CHAR_S", "CHAR_U", "SCHAR", "UCHAR"})


# Every function this rule looks at a call of: the rest (most calls) are left before their arguments are read.
CALLED = frozenset(BYTE_CALLS) | COPIES | MAPPINGS


def on_call(unit: Unit, call, parent) -> None:
    name = unit.callee_name(call)
    if name not in CALLED:
        return
    arguments = unit.arguments(call)
    if name in BYTE_CALLS and BYTE_CALLS[name] < len(arguments):
        buffer = arguments[BYTE_CALLS[name]]
        record = _record(unit, unit.strip(buffer).type)
        if record is not None:
            _check_record(unit, record, buffer, name, call)
    elif name in COPIES and len(arguments) >= 2:
        for buffer, other in ((arguments[0], arguments[1]), (arguments[1], arguments[0])):
            record = _record(unit, unit.strip(buffer).type)
            if record is None or not _bytes(unit, other) or _holds_pointers(unit, record):
                continue  # a record with pointers in it is copied within the process (an arena, a pool)
            if _check_record(unit, record, buffer, name, call):
                return
    elif name in MAPPINGS and parent.kind == unit.ci.CursorKind.UNEXPOSED_EXPR:
        record = _record(unit, parent.type)  # struct rec *r = mmap(...): the mapping's layout
        if record is not None:
            _check_record(unit, record, call, name, call)


def _bytes(unit: Unit, buffer) -> bool:
    """A buffer of bytes (char, unsigned char, uint8_t): what a frame, a file's
    contents or a shared ring is held in."""
    ci = unit.ci
    t = unit.strip(buffer).type.get_canonical()
    if t.kind in (ci.TypeKind.POINTER, ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        element = t.get_pointee() if t.kind == ci.TypeKind.POINTER else t.element_type
        return element.get_canonical().kind.name in BYTE_KINDS
    return False


def _holds_pointers(unit: Unit, record, depth: int = 0) -> bool:
    """A pointer among the record's fields (or its nested records' and arrays'):
    its bytes mean nothing outside this process, so no file, frame or shared
    ring is made of it, and memcpy of it into bytes is a copy in memory."""
    ci = unit.ci
    declaration = record.get_declaration()
    for field in declaration.get_children():
        if field.kind != ci.CursorKind.FIELD_DECL:
            continue
        t = field.type.get_canonical()
        while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            t = t.element_type.get_canonical()
        if t.kind == ci.TypeKind.POINTER:
            return True
        if t.kind == ci.TypeKind.RECORD and depth < 8 and _holds_pointers(unit, t, depth + 1):
            return True
    return False


def _record(unit: Unit, t):
    """The record a buffer holds: what a pointer points to, or an array's element (of arrays)."""
    ci = unit.ci
    t = t.get_canonical()
    if t.kind == ci.TypeKind.POINTER:
        t = t.get_pointee().get_canonical()
    while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        t = t.element_type.get_canonical()
    return t if t.kind == ci.TypeKind.RECORD else None


def _check_record(unit: Unit, record, where, how: str, call) -> bool:
    change = unit.home.layout_change(record.get_declaration()) if unit.home is not None else None
    if change is None:
        return False
    name, sizes, why = change
    pair = unit.pair
    message = (
        f"{how}() moves {name} as bytes, and its layout differs: {sizes} "
        f"({pair.source.label} / {pair.target.label}); {why}"
    )
    unit.report(RULE, where, message, anchor=call)
    return True


CHECK = Check(RULE, nodes={"CALL_EXPR": on_call}, callees=Callees(names=CALLED))
