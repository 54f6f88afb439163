"""PK501: a record whose layout differs between the models read, written or copied as bytes."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.unit import Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK501",
    name="layout-io",
    severity=Severity.WARNING,
    family="Layout-sensitive I/O",
    summary="A struct whose size or field offsets differ between the two data models, written, read, "
    "sent or copied as raw bytes.",
    why=(
        "fwrite(&rec, sizeof rec, 1, f) stores the in-memory layout. A record with a long, a pointer "
        "or a time_t in it has another size and other offsets on LP64, so files, messages and shared "
        "memory written by the 32-bit build cannot be read by the 64-bit one (the field report: "
        '"struct timeval" recorded to a file changes the file format).'
    ),
    wrong="struct timeval tv;\ngettimeofday(&tv, NULL);\nfwrite(&tv, sizeof tv, 1, log);",
    right="struct { int64_t sec; int32_t usec; } rec = { tv.tv_sec, tv.tv_usec };\n"
    "fwrite(&rec, sizeof rec, 1, log);   /* or serialise each field */",
    fix="Give files, messages and shared memory a fixed-width layout (int32_t, int64_t, explicit padding) "
    "and convert to and from it, or serialise field by field.",
)

# Function -> index of its buffer argument(s).
BYTE_CALLS = {
    "fwrite": (0,),
    "fread": (0,),
    "write": (1,),
    "read": (1,),
    "pwrite": (1,),
    "pread": (1,),
    "send": (1,),
    "recv": (1,),
    "sendto": (1,),
    "recvfrom": (1,),
    "memcpy": (0, 1),
    "memmove": (0, 1),
    "msgsnd": (1,),
    "msgrcv": (1,),
}


def on_call(unit: Unit, call, parent) -> None:
    name = unit.callee_name(call)
    arguments = unit.arguments(call)
    if name in BYTE_CALLS:
        buffers = [arguments[i] for i in BYTE_CALLS[name] if i < len(arguments)]
        records = [_record(unit, unit.strip(b).type) for b in buffers]
        if len(records) == 2 and records[0] is not None and records[0] == records[1]:
            return  # memcpy between two objects of one type: no bytes cross a model's boundary
        for buffer, record in zip(buffers, records, strict=True):
            if record is not None and _check_record(unit, record, buffer, name):
                return
    elif name == "mmap" and parent.kind == unit.ci.CursorKind.UNEXPOSED_EXPR:
        record = _record(unit, parent.type)  # struct rec *r = mmap(...): the mapping's layout
        if record is not None:
            _check_record(unit, record, call, "mmap")


def _record(unit: Unit, t):
    """The record a buffer holds: what a pointer points to, or an array's element (of arrays)."""
    ci = unit.ci
    t = t.get_canonical()
    if t.kind == ci.TypeKind.POINTER:
        t = t.get_pointee().get_canonical()
    while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        t = t.element_type.get_canonical()
    return t if t.kind == ci.TypeKind.RECORD else None


def _check_record(unit: Unit, record, where, how: str) -> bool:
    change = unit.home.layout_change(record.get_declaration()) if unit.home is not None else None
    if change is None:
        return False
    name, sizes, why = change
    pair = unit.pair
    message = (
        f"{how}() moves {name} as bytes, and its layout differs: {sizes} "
        f"({pair.source.label} / {pair.target.label}); {why}"
    )
    unit.report(RULE, where, message)
    return True


CHECK = Check(RULE, nodes={"CALL_EXPR": on_call})
