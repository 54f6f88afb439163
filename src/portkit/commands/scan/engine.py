"""Scanning one translation unit, in a worker process: parse it for the target
ABI with the clang warnings the rules explain, then walk the project's own
code once, handing each node to the rules that asked for its kind.

The walk runs in C (cparse.walk): a Python callback for each of a file's
nodes cost as much as clang's parse, and a rule sees only the nodes it
asked for; then clang's diagnostics go to the rules that explain them.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from portkit.commands.scan.archcode import mentions, read_as_code
from portkit.commands.scan.check import Check
from portkit.commands.scan.home import Home
from portkit.commands.scan.job import ScanJob, Scanned
from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.rules import CHECKS
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.widths import SIGNED, UNSIGNED
from portkit.cparse.libclang import cindex, inclusions
from portkit.cparse.parse import Problem, build_machine_includes, parse
from portkit.cparse.walk import CONVERSION, KIND, own_tops
from portkit.cparse.walk import walk as cwalk
from portkit.findings.model import Incomplete, Rule

OPERATOR_KINDS = ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR")  # handlers of these may name their operators
# Warnings the rules do not ask for stay off: -Wno-everything, then the ones they do.
QUIET = ("-Wno-everything",)
DROPPED_FLAGS = frozenset({"-w", "-Werror", "-Wno-everything", "-Weverything"})
MISSING_HEADER = re.compile(r"'(.+)' file not found")  # clang's fatal error for an #include it cannot find
# clang's errors for a call without a declaration: PK701's finding, not a file it could not read
IMPLICIT_MESSAGE = re.compile(r"(call to undeclared|implicit declaration of|implicitly declaring library) function")


def scan_unit(job: ScanJob) -> Scanned:
    with _no_cycle_collection():
        return _scan_unit(job)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while one unit is scanned: the scan keeps
    hundreds of thousands of small objects (cursors, answers) alive until it
    ends, and each collection walked them all again, a quarter of sqlite3.c's
    scan. What cycles it makes are collected when it is switched back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _scan_unit(job: ScanJob) -> Scanned:
    ci = cindex()
    checks = [c for c in CHECKS if c.rule.id in job.rules]
    warnings = sorted({option for c in checks for option in c.diagnostics})
    flags = _flags(job.flags, job.pair.target.abi.triple) + list(QUIET) + warnings
    target = job.pair.target.abi
    tu, errors = parse(
        str(job.path), target, flags, job.sysroot, job.text, bodies=True, build_machine=True, preprocessor_record=True
    )
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
    home = Home(
        ci,
        job.pair,
        lambda bodies: parse(
            str(job.path),
            source,
            home_flags,
            job.sysroot,
            job.text,
            bodies=bodies,
            build_machine=True,
            preprocessor_record=True,
        )[0],
    )
    unit = Unit(ci, tu, job.pair, home, tops=own_declarations(tu), lost_headers=fatal is not None)
    # The text parsed, not the disk's (they differ while --fix checks a fix), for what rules read of it.
    unit.notes[("lines", str(job.path))] = job.text.encode("utf-8", "surrogatepass").decode("latin-1").splitlines()
    checks = [c for c in checks if c.applies is None or c.applies(unit)]
    try:
        # the walk first: it knows every node's parent, which the diagnostics' rules then ask
        _scan(unit, [c for c in checks if not c.at_home])
        claimed = _diagnostics(unit, checks)
        errors = [e for e in errors if (e.file, e.line, e.message) not in claimed]
        at_home = [c for c in checks if c.at_home]
        if at_home and _read_at_home(job.text, home) and home.tu() is not None:
            home_unit = Unit(ci, home.tu(), job.pair, home, tops=own_declarations(home.tu()))
            _scan(home_unit, at_home)
            unit.findings += [f for f in home_unit.findings if f not in unit.findings]
            for finding, (macro, uses) in home_unit.expansions.items():
                unit.expansions.setdefault(finding, (macro, set()))[1].update(uses)
    except Exception as err:  # a rule tripped over this file's AST: say so, keep what was found
        reason = f"portkit's rules failed here ({type(err).__name__}: {err})"
        errors.append(Problem(str(job.path), 0, reason))
        incomplete = incomplete or Incomplete(path, reason)
    if incomplete is None and any(not IMPLICIT_MESSAGE.match(e.message) for e in errors):
        # clang went on past an error, but what it could not read is not checked
        first = next(e for e in errors if not IMPLICIT_MESSAGE.match(e.message))
        incomplete = Incomplete(path, first.message, first.line if shown_path(first.file) == path else 0)
    included = unit.inclusions() + (inclusions(ci, home.parsed()) if home.parsed() is not None else [])
    return Scanned(
        unit.findings, errors, True, incomplete, unit.expansions, _build_machine_headers(unit, job), included
    )


def _read_at_home(text: str, home: Home) -> bool:
    """Whether the source ABI's compiler reads assembly or intrinsics in the
    file, which the rules that look at the code's home then read in its whole
    parse. Most files mention none; where one does only in comments, #if
    conditions or branches the source ABI leaves out (sqlite3.c's x86 and
    MSVC code, for ARM), a parse of the declarations answers, at a quarter of the cost."""
    found = mentions(text)
    return bool(found) and read_as_code(text, found, home.left_out())


def _build_machine_headers(unit: Unit, job: ScanJob) -> list[str]:
    """The headers this unit took from the build machine's own directories."""
    cxx = str(job.path).endswith((".cpp", ".cc", ".cxx", ".c++", ".C", ".hpp", ".hh", ".hxx"))
    roots = build_machine_includes(job.pair.target.abi, job.sysroot, cxx)
    if not roots:
        return []
    prefixes = tuple(root.rstrip("/") + "/" for root in roots)
    return sorted({i.header for i in unit.inclusions() if os.path.normpath(i.header).startswith(prefixes)})


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
    """Every node of the project's own declarations the rules asked for, once,
    to the rules that asked: nodes by kind (binary and compound operators by
    operator), implicit conversions by the kinds of types they convert
    between. cparse.walk finds them in C; the unit keeps it for the parents."""
    ci = unit.ci
    table: dict[int, list] = {}  # kind -> (handler, the operators it is about, None: all)
    operators: set[str] | None = set()
    for check in checks:
        for name, handler in check.nodes.items():
            wanted = check.operators.get(name) if name in OPERATOR_KINDS else None
            table.setdefault(getattr(ci.CursorKind, name).value, []).append((handler, wanted))
            if name in OPERATOR_KINDS:
                operators = None if operators is None or wanted is None else operators | wanted
    conversions = [c.conversions for c in checks if c.conversions is not None]
    interesting = _interesting_conversions(unit) if conversions else {}
    walked = cwalk(ci, unit.tu, unit.tops, table, operators, interesting)
    unit.walks.insert(0, walked)
    for tag, node, parent, operator in walked.selected:
        if operator:  # the walk read it: rules need not ask libclang again
            unit.knows("operator", node, operator)
        if tag & KIND:
            for handler, wanted in table[node._kind_id]:
                if wanted is None or operator in wanted:
                    handler(unit, node, parent)
        if tag & CONVERSION:
            _conversion(unit, node, parent, conversions)


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
    return own_tops(cindex(), tu)


def _conversion(unit: Unit, value, result, checks: list) -> None:
    conversion = Conversion(value, result, unit.width(value.type), unit.width(result.type))
    for check in checks:
        check(unit, conversion)
