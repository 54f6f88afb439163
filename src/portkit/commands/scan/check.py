"""What each file of rules/ provides: its Rule (the data the docs and reports
show) and the checks the engine calls, by AST node kind, by clang warning
option, by implicit conversion, and over the whole unit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from portkit.findings.model import Rule

if TYPE_CHECKING:
    from portkit.commands.scan.unit import Conversion, Unit

NodeCheck = Callable[["Unit", object, object], None]  # (unit, node cursor, its parent)
DiagnosticCheck = Callable[["Unit", object], None]  # (unit, clang diagnostic)
ConversionCheck = Callable[["Unit", "Conversion"], None]
UnitCheck = Callable[["Unit"], None]


@dataclass(frozen=True)
class Callees:
    """The calls a check of CALL_EXPR looks at: of the functions named, or of any variadic one."""

    names: frozenset[str] = frozenset()
    variadic: bool = False


@dataclass(frozen=True)
class Constants:
    """The constants a check's nodes hold, or they are not handed to it
    (asked in C during the walk): an operand, under implicit conversions and
    parentheses, of one of `kinds` (a cparse.walk.kind_table) that folds to
    one of `values`; with `below`, an operand's own operand counts too (the
    32 of `x >> (32 - n)`, or of the comparison an if statement tests)."""

    kinds: bytes
    values: tuple[int, ...]
    below: bool = False


@dataclass(frozen=True)
class Check:
    rule: Rule
    nodes: Mapping[str, NodeCheck] = field(default_factory=dict)  # CursorKind name -> check
    # The operators a BINARY_OPERATOR or COMPOUND_ASSIGNMENT_OPERATOR check is
    # about ("<<", "&="): the walk hands it no other (a kind not named: every one).
    operators: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # The calls a CALL_EXPR check is about, when not every call: those of the
    # functions named, or (variadic) of any variadic function. The walk then
    # hands it only those (in C) unless another check wants every call.
    callees: Callees | None = None
    # Every node of the check's kinds (its binary and compound operators, by
    # operator) is handed to it only where it holds one of these constants.
    constants: Constants | None = None
    # Its casts are handed to it only where a pointer is made or unmade (the
    # cast's type, or its operand's through implicit conversions, parentheses
    # and other casts, is a pointer), asked in C during the walk.
    pointer_casts: bool = False
    diagnostics: Mapping[str, DiagnosticCheck] = field(default_factory=dict)  # "-Wformat" -> check
    # Called for each implicit conversion between types of different kinds:
    # the commonest question ("what did this value become?"), its widths worked
    # out once for every rule that asks.
    conversions: ConversionCheck | None = None
    # Its conversions include those of an integer literal as written (`p = 0`,
    # `n = 1`: most of a unit's). The rules here read what a conversion's
    # value is made of (an operator, a call, a va_arg, a variable), and a
    # literal is a constant that is the same in every model: none asks.
    literal_conversions: bool = False
    # Called once a unit is walked, for what only the whole file tells
    # (callers against callees, the files it includes).
    whole: UnitCheck | None = None
    # Run on the source ABI's view of the file instead of the target's: what
    # is written for the old architecture (code under #if defined(__arm__),
    # which the target's preprocessor drops) is what must be rewritten; a
    # branch already written for the target is not.
    at_home: bool = False
    # Not run in a unit whose parse stopped at a fatal error (a missing
    # #include): what it would find there is the missing header's doing
    # (a function that header declares looks undeclared), not the code's.
    needs_every_header: bool = False
    # Run only where this says it can find something (the unit's own text
    # writes the number the rule looks for; clang reported what it explains):
    # a whole walk's worth of questions saved on most files.
    applies: Callable[[Unit], bool] | None = None
    # Work this check shares with others that name it too ("variadic": the
    # variadic functions' va_arg reads, worked out once per unit): where a
    # unit's rules run in two processes, such checks stay in one.
    shares: str = ""
