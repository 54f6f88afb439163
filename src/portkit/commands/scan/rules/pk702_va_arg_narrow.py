"""PK702: va_arg reads a narrower type than the caller passed."""

from __future__ import annotations

import re

from portkit.commands.scan.check import Callees, Check
from portkit.commands.scan.expressions import CASTS, is_va_arg
from portkit.commands.scan.unit import Conversion, Unit, identity
from portkit.commands.scan.variadic import note_call, variadic_use
from portkit.commands.scan.widths import differs_only_on_target, narrower_than_pointer
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK702",
    name="va-arg-narrow",
    severity=Severity.ERROR,
    family="Calls",
    summary="va_arg reads an int where the caller passes a pointer or a long.",
    why=(
        "Variadic arguments carry no types: the callee must read exactly what the caller passed. "
        "On ILP32 reading a pointer or a long as int happened to work because all three are 32 bits; "
        "on LP64 the caller passes 64 bits and va_arg(ap, int) takes only half of them (and the next "
        "va_arg reads from the wrong place on some ABIs). Not reported where every call in the file passes "
        "an int at that place: then an int is what arrives, and widening it afterwards is right."
    ),
    wrong="char *name = (char *) va_arg(ap, int);\nlong count = va_arg(ap, int);",
    right="char *name = va_arg(ap, char *);\nlong count = va_arg(ap, long);",
    fix="Read each variadic argument with va_arg of the type the caller passes (a pointer type, long, size_t).",
)


# Every read this rule judges is one (`\bva_arg\b`, with the search starting from the literal).
VA_ARG = re.compile(r"va_arg(?<!\wva_arg)(?!\w)")


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    """va_arg(ap, int) used as a pointer or a value that is 64-bit on the target."""
    before, after = conversion.before, conversion.after
    if not before.integer or not before.known or not after.known:
        return
    if not (after.kind == "pointer" or after.integer) or after.target <= before.target:
        return
    read = unit.strip(conversion.value)
    if after.source > before.source or not is_va_arg(unit, read):
        return  # it was widened at home too: not what the caller's 32-bit world passed
    _candidates(unit).append((conversion.value, read, before, after))


def on_cast(unit: Unit, cast, _parent) -> None:
    after = unit.width_of(cast)
    if after.kind != "pointer":
        return  # most casts: (int), (u8), (i64)
    operand = unit.strip(unit.children(cast)[-1])
    before = unit.width_of(operand)
    if narrower_than_pointer(before, after) and is_va_arg(unit, operand):
        _candidates(unit).append((operand, operand, before, after))


def _candidates(unit: Unit) -> list:
    """va_arg(ap, int) read as something wider, judged once the file's callers are known."""
    return unit.notes.setdefault("PK702 candidates", [])


def _message(unit: Unit, before, after) -> str:
    pair = unit.pair
    return (
        f"va_arg reads {before.describe(pair)} but the value is used as {after.describe(pair)}: "
        f"the caller passed {after.target} bytes on {pair.target.label}"
    )


def against_callers(unit: Unit) -> None:
    """va_arg(ap, int) where this file's own calls pass a long or a pointer at
    that position; and an int read as something wider, unless every call in
    the file passes an int there (then the int is what arrives, and widening
    it is right)."""
    reported = set()
    passed_at: dict[tuple, list] = {}
    for read, argument in variadic_use(unit).passed:
        passed = unit.expression_width(argument)
        passed_at.setdefault(identity(read.cursor), []).append(passed)
        if id(read) in reported or not read.width.integer or not (passed.integer or passed.kind == "pointer"):
            continue
        if differs_only_on_target(read.width, passed) and passed.target > read.width.target:
            reported.add(id(read))
            unit.report(RULE, read.cursor, _message(unit, read.width, passed))
    for where, read, before, after in _candidates(unit):
        passed = passed_at.get(identity(read), [])
        if passed and all(p.integer and p.known and p.target <= before.target for p in passed):
            continue  # every caller passes an int: va_arg(ap, int) reads exactly that
        unit.report(RULE, where, _message(unit, before, after))


CHECK = Check(
    RULE,
    applies=lambda unit: unit.mentions(VA_ARG),
    nodes={**dict.fromkeys(CASTS, on_cast), "CALL_EXPR": note_call},
    callees=Callees(variadic=True),
    pointer_casts=True,  # on_cast: va_arg(ap, int) cast to a pointer
    conversions=on_conversion,
    whole=against_callers,
    shares="variadic",
)
