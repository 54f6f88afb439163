"""PK201: a printf-family directive and its argument of different widths on the target."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import is_implicit_call
from portkit.commands.scan.messages import diagnostic_location, quoted_types
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import differs_only_on_target
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK201",
    name="printf-format-width",
    severity=Severity.WARNING,
    family="Format strings",
    summary="A printf-family conversion whose argument has another width in the target data model.",
    why=(
        "printf takes its arguments by the directive, not by their type. On ILP32 %d, %u and %x read "
        "32 bits, and a long, a size_t, a pointer difference or a pointer are 32 bits too, so the "
        "output was right. On LP64 these are 64 bits: %d prints half of the value and every later "
        "argument is read from the wrong place. The same holds for functions declared with "
        "__attribute__((format(printf, ...)))."
    ),
    wrong='void *p, *q;\nprintf("num = %d\\n", q - p);\nprintf("%x\\n", (unsigned) ptr);',
    right='void *p, *q;\nprintf("num = %td\\n", q - p);\nprintf("%p\\n", ptr);',
    fix="Use the length modifier of the argument's type: %ld for long, %zu for size_t, %td for ptrdiff_t, "
    "%p for pointers, PRId64/PRIu64 (<inttypes.h>) for fixed-width types.",
)


def on_format(unit: Unit, diag) -> None:
    types = quoted_types(diag.spelling)
    if len(types) < 2 or not diag.spelling.startswith("format specifies type"):
        return
    expected = unit.width_named(*types[0])
    argument = unit.expression_at(diag)
    given = unit.expression_width(argument) if argument is not None else unit.width_named(*types[1])
    if expected.kind == "pointer" and given.kind == "pointer":
        return  # a scanf-family argument: PK202's
    if argument is not None and is_implicit_call(unit, argument):
        return  # PK701 says why
    if differs_only_on_target(expected, given):
        pair = unit.pair
        message = f"the directive reads {expected.describe(pair)} but the argument is {given.describe(pair)}"
        unit.add(RULE, diagnostic_location(diag), message)


CHECK = Check(RULE, diagnostics={"-Wformat": on_format})
