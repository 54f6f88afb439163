"""PK701: a call through an implicit declaration, whose result is a pointer or 64-bit."""

from __future__ import annotations

from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import is_implicit_call
from portkit.commands.scan.unit import Conversion, Unit
from portkit.findings.model import Rule, Severity

RULE = Rule(
    id="PK701",
    name="implicit-declaration",
    severity=Severity.ERROR,
    family="Calls",
    summary="A function called without a declaration in scope, whose result is used as a pointer or a 64-bit value.",
    why=(
        "Without a prototype, C89 assumes the function returns int. On ILP32 a returned pointer or "
        "long fitted in that int; on LP64 the caller keeps only the low 32 bits of the register and "
        "sign-extends them, so a pointer from malloc, strdup or the project's own allocator is "
        "corrupted as soon as it lies above 2 GiB."
    ),
    wrong="/* no #include <string.h> */\nchar *copy = strdup(name);",
    right="#include <string.h>\nchar *copy = strdup(name);",
    fix="Include the header that declares the function (or declare it), and build with "
    "-Werror=implicit-function-declaration.",
)


def on_conversion(unit: Unit, conversion: Conversion) -> None:
    """int f() used as a pointer or a long: what the implicit declaration cut."""
    after = conversion.after
    if not (after.kind == "pointer" or (after.integer and after.grows)):
        return
    if conversion.before.target != 4 or not is_implicit_call(unit, conversion.value):
        return
    pair = unit.pair
    call = unit.strip(conversion.value)
    message = (
        f"'{call.spelling}' has no declaration, so its result is an int, used as {after.describe(pair)}: "
        f"on {pair.target.label} the upper 32 bits of the returned value are lost"
    )
    unit.report(RULE, call, message, anchor=call)


def on_call(unit: Unit, call, _parent) -> None:
    """A C library function clang knows the real type of (strtok, malloc):
    each call through its implicit declaration, whatever becomes of the result."""
    if not is_implicit_call(unit, call):
        return
    result = unit.width(unit.callee(call).result_type)
    if result.kind == "pointer" or (result.integer and result.grows):
        pair = unit.pair
        message = (
            f"'{call.spelling}' is called without its header: C89 takes its result for an int, but it returns "
            f"{result.describe(pair)}, whose upper bits are lost on {pair.target.label}"
        )
        unit.report(RULE, call, message, anchor=call)


def on_diagnostic(unit: Unit, diag) -> None:
    """clang's error for the implicit declaration itself: this rule's to explain,
    which on_call and on_conversion do at each call (clang says it once)."""


def implicit_declarations(unit: Unit) -> bool:
    """clang declared a function on the spot somewhere in the unit (it says so, in C and C++)."""
    return any(diag.option == OPTION for diag in unit.tu.diagnostics)


OPTION = "-Wimplicit-function-declaration"

CHECK = Check(
    RULE,
    applies=implicit_declarations,
    nodes={"CALL_EXPR": on_call},
    diagnostics={"-Wimplicit-function-declaration": on_diagnostic},
    conversions=on_conversion,
    needs_every_header=True,
)
