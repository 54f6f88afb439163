"""PK101: a pointer kept in an integer that is narrower than a pointer on the target."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import CASTS
from portkit.commands.scan.messages import diagnostic_location, quoted_types
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.values import low_bits_only
from portkit.commands.scan.widths import Width, loses_bits_only_on_target
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK101",
    name="pointer-to-narrower-int",
    severity=Severity.ERROR,
    family="Pointers and integers",
    summary="A pointer converted to an integer type that is narrower than a pointer in the target data model.",
    why=(
        "On ILP32 an int, a long and a pointer are all 32 bits, so code could keep an address in an int. "
        "On LP64 (AArch64) a pointer is 64 bits and int stays 32: the cast keeps the low half and the "
        "address is lost as soon as memory lies above 4 GiB. On LLP64 (Win64) the same holds for long. "
        "Not reported: a test of the low bits only, (uint32_t)(uintptr_t)p & 3, which alignment checks are; "
        "and an int taken back out of a pointer in two written steps through intptr_t, uintptr_t or "
        "ptrdiff_t, (int)(intptr_t)context: the way C code says the pointer carries an integer (a file "
        "descriptor handed to a callback), not an address. (int)(long)p is still reported."
    ),
    wrong="int addr;\naddr = (int) a;\np = (int *) addr;",
    right="#include <stdint.h>\nintptr_t addr;\naddr = (intptr_t) a;\np = (int *) addr;",
    fix="Keep addresses in intptr_t or uintptr_t (<stdint.h>), or keep the pointer itself.",
)


def pointer_behind(unit: Unit, cursor) -> Width | None:
    """The pointer an integer expression was made from, through casts to
    integers at least as wide as it: `(int)(long)p` is still a pointer cut."""
    direct = unit.width_of(cursor)
    if direct.kind == "pointer":
        return direct  # a pointer, or an array decayed to one
    inner = unit.strip(cursor)
    here = unit.width_of(inner)
    if here.kind == "pointer":
        return here
    if inner.kind.name in CASTS and here.integer:
        operand = unit.children(inner)[-1]
        found = pointer_behind(unit, operand)
        if found is not None and here.known and found.known and here.target >= found.target:
            return found
    return None


def on_cast(unit: Unit, cast, _parent) -> None:
    into = unit.width_of(cast)
    if not into.integer:
        return
    pointer = pointer_behind(unit, unit.children(cast)[-1])
    if pointer is None or not loses_bits_only_on_target(pointer, into):
        return
    if low_bits_only(unit, cast, 8 * into.target):
        return  # an alignment test, (uint32_t)(size_t)p & 3: the low bits are the same in both models
    if _integer_carried(unit, unit.children(cast)[-1]):
        return
    unit.report(RULE, cast, _message(unit, pointer, into, "cast to"), anchor=cast)


INTEGER_CARRIERS = frozenset({"intptr_t", "uintptr_t", "ptrdiff_t"})


def _integer_carried(unit: Unit, operand) -> bool:
    """(int)(intptr_t)p: the operand is a written cast of the pointer to a
    pointer-sized integer typedef, the idiom for an integer kept in a pointer."""
    inner = unit.strip(operand)
    if inner.kind.name != "CSTYLE_CAST_EXPR":
        return False
    spelled = inner.type.spelling.removeprefix("const ").strip()
    return spelled in INTEGER_CARRIERS and unit.width_of(unit.strip(unit.children(inner)[-1])).kind == "pointer"


def on_int_conversion(unit: Unit, diag) -> None:
    """C's implicit pointer-to-integer conversions (assignment, initialisation,
    argument, return), which clang reports as -Wint-conversion."""
    if not diag.spelling.startswith("incompatible pointer to integer conversion"):
        return
    types = [unit.width_named(*t) for t in quoted_types(diag.spelling)[:2]]
    pointers = [t for t in types if t.kind == "pointer"]
    integers = [t for t in types if t.integer]
    if pointers and integers and loses_bits_only_on_target(pointers[0], integers[0]):
        unit.add(RULE, diagnostic_location(diag), _message(unit, pointers[0], integers[0], "converted to"))


def _message(unit: Unit, pointer: Width, into: Width, how: str) -> str:
    pair = unit.pair
    return (
        f"pointer {pointer.describe(pair)} {how} {into.describe(pair)}: "
        f"the address loses its upper {8 * (pointer.target - into.target)} bits on {pair.target.label}"
    )


CHECK = Check(
    RULE,
    nodes=dict.fromkeys(CASTS, on_cast),
    pointer_casts=True,
    diagnostics={"-Wint-conversion": on_int_conversion},
)
