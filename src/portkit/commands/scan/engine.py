"""Scanning one translation unit, in a worker process: parse it for the target
ABI with the clang warnings the rules explain, then walk the project's own
code once, handing each node to the rules that asked for its kind.

The walk is one clang_visitChildren per top-level declaration with a single
callback (the bindings' get_children() would build a list per node, about
2.5 times slower), and a rule sees only the nodes it asked for.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from portkit.commands.scan.check import Check
from portkit.commands.scan.home import Home
from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.models import ModelPair
from portkit.commands.scan.rules import CHECKS
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.widths import SIGNED, UNSIGNED
from portkit.cparse.libclang import Inclusion, cindex, inclusions
from portkit.cparse.parse import Problem, parse
from portkit.findings.model import Finding, Incomplete, Rule

RECURSE = 2  # CXChildVisit_Recurse
EXPRESSIONS = (100, 200)  # CXCursor_FirstExpr .. the first statement kind: a type reference is no value
BREAK = 0  # CXChildVisit_Break
# Warnings the rules do not ask for stay off: -Wno-everything, then the ones they do.
QUIET = ("-Wno-everything",)
DROPPED_FLAGS = frozenset({"-w", "-Werror", "-Wno-everything", "-Weverything"})
MISSING_HEADER = re.compile(r"'(.+)' file not found")  # clang's fatal error for an #include it cannot find
# A file that may hold architecture-specific code, worth a look as the source ABI sees it.
ARCH_SPECIFIC = re.compile(
    r"\basm\b|__asm|arm_neon|arm_acle|intrin\.h|__builtin_(?:arm|aarch64|ia32|neon|mips)_|__arm_"
)


@dataclass(frozen=True)
class ScanJob:
    """One translation unit: what a worker needs to scan it."""

    path: Path
    text: str
    flags: tuple[str, ...]
    pair: ModelPair
    sysroot: Path | None
    rules: frozenset[str]  # the rule ids selected


@dataclass
class Scanned:
    findings: list[Finding] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)  # what clang could not make sense of
    parsed: bool = False
    incomplete: Incomplete | None = None  # why the unit was not checked completely
    # Every #include either parse followed: what the cache checks before reusing these findings.
    included: list[Inclusion] = field(default_factory=list)


def scan_unit(job: ScanJob) -> Scanned:
    ci = cindex()
    checks = [c for c in CHECKS if c.rule.id in job.rules]
    warnings = sorted({option for c in checks for option in c.diagnostics})
    flags = _flags(job.flags, job.pair.target.abi.triple) + list(QUIET) + warnings
    tu, errors = parse(str(job.path), job.pair.target.abi, flags, job.sysroot, job.text, bodies=True)
    path = shown_path(str(job.path))
    if tu is None:
        return Scanned(errors=errors, incomplete=Incomplete(path, errors[0].message if errors else "not parsed"))
    fatal = next((e for e in errors if e.fatal), None)
    incomplete = None
    if fatal is not None:
        # clang reports nothing after a fatal error, so the rules that read its
        # diagnostics miss what follows; those that need every header do not run.
        skipped = [c for c in checks if c.needs_every_header]
        checks = [c for c in checks if not c.needs_every_header]
        incomplete = _stopped(ci, tu, path, fatal, [c.rule for c in skipped])
    source = job.pair.source.abi
    home_flags = [*_flags(job.flags, source.triple), "-w"]
    home = Home(ci, job.pair, lambda: parse(str(job.path), source, home_flags, job.sysroot, job.text, bodies=True)[0])
    unit = Unit(ci, tu, job.pair, home, tops=own_declarations(tu))
    # The text parsed, not the disk's (they differ while --fix checks a fix), for what rules read of it.
    unit.notes[("lines", str(job.path))] = job.text.encode("utf-8", "surrogatepass").decode("latin-1").splitlines()
    claimed = _diagnostics(unit, checks)
    errors = [e for e in errors if (e.file, e.line, e.message) not in claimed]
    try:
        _scan(unit, [c for c in checks if not c.at_home])
        at_home = [c for c in checks if c.at_home]
        if at_home and ARCH_SPECIFIC.search(job.text) and home.tu() is not None:
            home_unit = Unit(ci, home.tu(), job.pair, home, tops=own_declarations(home.tu()))
            _scan(home_unit, at_home)
            unit.findings += [f for f in home_unit.findings if f not in unit.findings]
    except Exception as err:  # a rule tripped over this file's AST: say so, keep what was found
        reason = f"portkit's rules failed here ({type(err).__name__}: {err})"
        errors.append(Problem(str(job.path), 0, reason))
        incomplete = incomplete or Incomplete(path, reason)
    included = inclusions(ci, tu) + (inclusions(ci, home.tu()) if home.parsed() and home.tu() is not None else [])
    return Scanned(unit.findings, errors, True, incomplete, included)


def _stopped(ci, tu, path: str, fatal: Problem, skipped: Sequence[Rule]) -> Incomplete:
    """Why and where clang stopped checking the unit: `config.h not found`
    at its line, or at the unit's #include that led to the header where it
    stopped; and the rules that did not run because of it."""
    missing = MISSING_HEADER.fullmatch(fatal.message)
    reason = f"{missing[1]} not found" if missing else fatal.message
    line = fatal.line
    if shown_path(fatal.file) != path:
        reason += f" (in {shown_path(fatal.file)}:{fatal.line})"
        line = _included_at(ci, tu, fatal.file, path)
    if skipped:
        reason += f"; {', '.join(rule.id for rule in skipped)} not checked"
    return Incomplete(path, reason, line)


def _included_at(ci, tu, header: str, path: str) -> int:
    """The line of the unit's own #include through which `header` came in (0: not found)."""
    included_from = {os.path.normpath(i.header): i for i in inclusions(ci, tu)}
    seen = set()
    current = os.path.normpath(header)
    while current in included_from and current not in seen:
        seen.add(current)
        inclusion = included_from[current]
        if shown_path(inclusion.file) == path:
            return inclusion.line
        current = os.path.normpath(inclusion.file)
    return 0


def _flags(flags: Sequence[str], triple: str) -> list[str]:
    """The file's own flags without those that silence clang, plus what a
    target needs for clang to know its C library's printf (MinGW's inline
    wrappers hide it unless the MSVCRT declarations are chosen)."""
    kept = [f for f in flags if f not in DROPPED_FLAGS]
    return [*kept, "-D__USE_MINGW_ANSI_STDIO=0"] if "mingw" in triple else kept


def _scan(unit: Unit, checks: Sequence[Check]) -> None:
    walk(unit, checks)
    for check in checks:
        if check.whole is not None:
            check.whole(unit)


def _diagnostics(unit: Unit, checks: Sequence[Check]) -> set[tuple[str, int, str]]:
    """Hands clang's diagnostics in the project's own files to the rules that
    explain them; returns those taken, so they are not also reported as errors."""
    by_option = {}
    for check in checks:
        for option, handler in check.diagnostics.items():
            by_option.setdefault(option, []).append(handler)
    taken = set()
    for diag in unit.tu.diagnostics:
        handlers = by_option.get(diag.option)
        location = diag.location
        if not handlers or location.file is None or location.is_in_system_header:
            continue
        for handler in handlers:
            handler(unit, diag)
        taken.add((location.file.name, location.line, diag.spelling))
    return taken


def walk(unit: Unit, checks: Sequence[Check]) -> None:
    """Every node of the project's own declarations, once, to the rules that asked."""
    ci = unit.ci
    table: dict[int, list] = {}
    for check in checks:
        for name, handler in check.nodes.items():
            table.setdefault(getattr(ci.CursorKind, name).value, []).append(handler)
    conversions = [c.conversions for c in checks if c.conversions is not None]
    implicit = ci.CursorKind.UNEXPOSED_EXPR.value
    interesting = _interesting_conversions(unit)
    tu = unit.tu
    failure: list[BaseException] = []

    def visit(cursor, parent, _data) -> int:
        try:
            cursor._tu = parent._tu = tu  # the bindings expect it on every cursor they are given
            handlers = table.get(cursor._kind_id)
            if handlers:
                for handler in handlers:
                    handler(unit, cursor, parent)
            if conversions and parent._kind_id == implicit and EXPRESSIONS[0] <= cursor._kind_id < EXPRESSIONS[1]:
                _conversion(unit, cursor, parent, conversions, interesting)
        except BaseException as err:  # a ctypes callback must not raise: stop and re-raise below
            failure.append(err)
            return BREAK
        return RECURSE

    callback = ci.callbacks["cursor_visit"](visit)
    for top in unit.tops:
        visit(top, tu.cursor, None)
        ci.conf.lib.clang_visitChildren(top, callback, None)
        if failure:
            raise failure[0]


def _interesting_conversions(unit: Unit) -> dict[int, frozenset[int]]:
    """The conversions rules ask about, by the target's canonical TypeKind,
    result kind -> value kinds: an integer into a pointer, a 32-bit integer
    into a 64-bit one (int into long, or into size_t, which is `unsigned long
    long` on LLP64), and a 64-bit one into 32 bits. Most conversions
    (promotions, decays, signedness) are none of these and cost one type
    lookup. (Pointers into integers come from -Wint-conversion and the casts.)
    Kinds by libclang's numbers: a kind's name costs two more lookups, on a
    path taken for every implicit conversion of the unit."""
    target = unit.pair.target.builtins
    integers = [k for k in SIGNED | UNSIGNED if k in target]
    wide = [k for k in integers if target[k] >= 8 and "128" not in k]
    narrow = [k for k in integers if target[k] == 4]

    def number(kind: str) -> int:
        return getattr(unit.ci.TypeKind, kind).value

    def numbers(kinds: list[str]) -> frozenset[int]:
        return frozenset(map(number, kinds))

    return {
        number("POINTER"): numbers(integers),
        **dict.fromkeys(map(number, wide), numbers(narrow)),
        **dict.fromkeys(map(number, narrow), numbers(wide)),
    }


def own_declarations(tu) -> list:
    """The top-level declarations of the project's own files, not of system headers."""
    own = []
    for top in tu.cursor.get_children():
        location = top.location
        if not location.is_in_system_header and location.file is not None:  # the cheaper question first
            own.append(top)
    return own


def _conversion(unit: Unit, value, result, checks: list, interesting: dict[int, frozenset[int]]) -> None:
    result_type = result.type
    values = interesting.get(result_type.get_canonical()._kind_id)
    if values is None:
        return
    value_type = value.type
    if value_type.get_canonical()._kind_id not in values:
        return
    conversion = Conversion(value, result, unit.width(value_type), unit.width(result_type))
    for check in checks:
        check(unit, conversion)
