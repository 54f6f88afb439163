"""PK102: a pointer made from an integer that is narrower than a pointer on the target."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import CASTS, is_implicit_call, is_va_arg
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.values import consumer
from portkit.commands.scan.widths import Width, narrower_than_pointer
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK102",
    name="int-to-pointer",
    severity=Severity.ERROR,
    family="Pointers and integers",
    summary="A pointer made from an integer that is narrower than a pointer in the target data model.",
    why=(
        "An address that went through an int comes back with only its low 32 bits: on LP64 the "
        "pointer made from it points somewhere else (or, for a negative int, is sign-extended into "
        "a non-canonical address) and the first access faults or corrupts memory."
    ),
    wrong="int addr = (int) a;\nint *p = (int *) addr;",
    right="intptr_t addr = (intptr_t) a;\nint *p = (int *) addr;",
    fix="Carry the address in intptr_t or uintptr_t (<stdint.h>) all the way, not in int or unsigned.",
)


def on_cast(unit: Unit, cast, _parent) -> None:
    pointer = unit.width_of(cast)
    if pointer.kind != "pointer":
        return
    operand = unit.strip(unit.children(cast)[-1])
    integer = unit.width_of(operand)
    if not narrower_than_pointer(integer, pointer) or _harmless_constant(unit, operand) or is_va_arg(unit, operand):
        return
    unit.report(RULE, cast, _message(unit, integer, pointer), anchor=cast)


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    if conversion.after.kind != "pointer" or not narrower_than_pointer(conversion.before, conversion.after):
        return
    if _harmless_constant(unit, conversion.value) or is_va_arg(unit, unit.strip(conversion.value)):
        return
    if is_implicit_call(unit, conversion.value):
        return  # PK701 says why
    message = _message(unit, conversion.before, conversion.after)
    unit.report(RULE, conversion.value, message, anchor=lambda: consumer(unit, conversion.result))


def _harmless_constant(unit: Unit, cursor) -> bool:
    """A constant address (0, a register) zero-extends the same on both, and
    -1 sign-extends to all ones on both ((void *)-1 is MAP_FAILED): only
    other negative constants change."""
    value = unit.value(cursor)
    return value is not None and value >= -1


def _message(unit: Unit, integer: Width, pointer: Width) -> str:
    pair = unit.pair
    return (
        f"pointer {pointer.describe(pair)} made from integer {integer.describe(pair)}: "
        f"an address kept there lost its upper bits on {pair.target.label}"
    )


CHECK = Check(RULE, nodes=dict.fromkeys(CASTS, on_cast), pointer_casts=True, conversions=on_conversion)
