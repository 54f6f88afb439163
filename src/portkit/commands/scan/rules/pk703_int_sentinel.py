"""PK703: an integer 0 as the terminating pointer of a variadic call."""

from __future__ import annotations

from portkit.commands.scan.check import Callees, Check
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.variadic import note_call, variadic_use
from portkit.commands.scan.widths import Width, narrower_than_pointer
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK703",
    name="int-sentinel",
    severity=Severity.ERROR,
    family="Calls",
    summary="A plain 0 (an int) ends the argument list of a variadic function that expects a null pointer.",
    why=(
        "execl and other sentinel-terminated functions read arguments as pointers until they meet a "
        "null one. A literal 0 passes an int: on ILP32 as wide as a pointer, on LP64 only 32 bits, and "
        "the callee reads the upper half from whatever the register or stack slot held, so the list "
        "may not end."
    ),
    wrong='execl("/bin/sh", "sh", "-c", cmd, 0);',
    right='execl("/bin/sh", "sh", "-c", cmd, (char *) NULL);',
    fix="End the list with (char *) NULL or (void *) 0, a null pointer of the expected type.",
)

# Functions whose list ends with a null pointer, and where the sentinel stands from the end.
SENTINELS = {"execl": 1, "execlp": 1, "execle": 2}


def on_call(unit: Unit, call, _parent) -> None:
    noted = note_call(unit, call)
    if noted is None or not noted[1].variadic:
        return
    callee, facts = noted
    from_end = SENTINELS.get(callee.spelling) or (1 if facts.sentinel else 0)
    arguments = unit.arguments(call)
    if not from_end or len(arguments) < from_end:
        return
    sentinel = arguments[-from_end]
    value = unit.width_of(unit.strip(sentinel))
    pair = unit.pair
    pointer = Width("void *", pair.source.builtins["POINTER"], pair.target.builtins["POINTER"], "pointer")
    if narrower_than_pointer(value, pointer) and unit.value(sentinel) == 0:
        message = (
            f"the list of {callee.spelling}() ends with {value.describe(pair)}, not a null pointer: "
            f"{pointer.target} bytes are read on {pair.target.label}"
        )
        unit.report(RULE, sentinel, message)


def against_readers(unit: Unit) -> None:
    """A 0 passed where this file's own variadic function reads a pointer (its list's end)."""
    pair = unit.pair
    for read, argument in variadic_use(unit).passed:
        value = unit.width_of(unit.strip(argument))
        if read.width.kind == "pointer" and narrower_than_pointer(value, read.width) and unit.value(argument) == 0:
            message = (
                f"0 passes {value.describe(pair)} where va_arg reads {read.width.describe(pair)}: "
                f"{read.width.target} bytes are read on {pair.target.label}"
            )
            unit.report(RULE, argument, message)


CHECK = Check(
    RULE, nodes={"CALL_EXPR": on_call}, callees=Callees(variadic=True), whole=against_readers, shares="variadic"
)
