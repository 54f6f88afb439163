"""PK202: a scanf-family directive writes another width than its argument points to."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.messages import diagnostic_location, quoted_types
from portkit.commands.scan.unit import Unit
from portkit.commands.scan.widths import differs_only_on_target
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK202",
    name="scanf-format-width",
    severity=Severity.ERROR,
    family="Format strings",
    summary="A scanf-family conversion that stores a different width than the object its argument points to.",
    why=(
        "scanf writes through the pointer as many bytes as the directive says. On ILP32 %d into a "
        "long * stored all 4 bytes of the long; on LP64 it stores 4 of 8, leaving the upper half as "
        "it was, and %ld into an int * writes 8 bytes into 4: memory next to it is overwritten."
    ),
    wrong='long offset;\nsscanf(text, "%d", &offset);',
    right='long offset;\nsscanf(text, "%ld", &offset);',
    fix="Use the directive of the object's type (%ld for long, %zu for size_t, SCNd64 from <inttypes.h> "
    "for int64_t), or read into an int and convert.",
)


def on_format(unit: Unit, diag) -> None:
    types = quoted_types(diag.spelling)
    if len(types) < 2 or not diag.spelling.startswith("format specifies type"):
        return
    (expected, expected_aka), (given, given_aka) = types[:2]
    if not (expected.endswith("*") and given.endswith("*")):
        return
    wants = unit.width_named(_pointee(expected), expected_aka and _pointee(expected_aka))
    has = unit.width_named(_pointee(given), given_aka and _pointee(given_aka))
    if wants.kind != "pointer" and differs_only_on_target(wants, has):
        pair = unit.pair
        message = f"the directive stores {wants.describe(pair)} into {has.describe(pair)}"
        unit.add(RULE, diagnostic_location(diag), message)


def _pointee(spelling: str) -> str:
    return spelling.rstrip().removesuffix("*").rstrip()


CHECK = Check(RULE, diagnostics={"-Wformat": on_format})
