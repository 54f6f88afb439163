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
from dataclasses import dataclass
from functools import partial

from portkit._directives import directives_only
from portkit.commands.scan.archcode import mentions, read_as_code
from portkit.commands.scan.check import Check
from portkit.commands.scan.expressions import CASTS
from portkit.commands.scan.home import DIRECTIVES, WHOLE, Home
from portkit.commands.scan.job import CHANGED, ScanJob, Scanned, stamp
from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.rules import CHECKS
from portkit.commands.scan.unit import Conversion, Unit
from portkit.commands.scan.widths import SIGNED, UNSIGNED
from portkit.core.workers import Beside, spare_workers
from portkit.cparse.libclang import Inclusion, cindex, inclusions
from portkit.cparse.parse import Problem, build_machine_includes, parse
from portkit.cparse.walk import CONVERSION, KIND, KINDS, Walked, cursor_type, own_tops
from portkit.cparse.walk import walk as cwalk
from portkit.findings.model import Finding, Incomplete, Rule

OPERATOR_KINDS = ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR")  # handlers of these may name their operators
# Warnings the rules do not ask for stay off: -Wno-everything, then the ones they do.
QUIET = ("-Wno-everything",)
DROPPED_FLAGS = frozenset({"-w", "-Werror", "-Wno-everything", "-Weverything"})
MISSING_HEADER = re.compile(r"'(.+)' file not found")  # clang's fatal error for an #include it cannot find
# A unit whose walk hands the rules this many nodes shares them with a forked child (_check_target),
# when a worker is spare: about 0.1 s of the rules' work there (sqlite3.c's 7,000 nodes: 0.13 s).
SPLIT_NODES = 5_000
# A unit of this much text has the rules at home run beside the walk (_check).
HOME_BESIDE_BYTES = 1 << 20
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
        str(job.path),
        target,
        flags,
        job.sysroot,
        _unsaved(job),
        bodies=True,
        build_machine=True,
        preprocessor_record=True,
    )
    path = shown_path(str(job.path))
    if _unsaved(job) is None and _changed_since_read(job):
        return Scanned(errors=[Problem(str(job.path), 0, CHANGED)], incomplete=Incomplete(path, CHANGED))
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
    home_flags = [*_flags(job.flags, job.pair.source.abi.triple), "-w"]
    home = Home(ci, job.pair, partial(_parse_home, job, home_flags))
    unit = Unit(ci, tu, job.pair, home, tops=own_declarations(tu), lost_headers=fatal is not None)
    # The text parsed, not the disk's (they differ while --fix checks a fix), for what rules read of it.
    unit.notes[("parsed text", str(job.path))] = job.text
    checks = [c for c in checks if c.applies is None or c.applies(unit)]
    share = _check(unit, checks, job.text, home)
    errors = [e for e in errors if (e.file, e.line, e.message) not in share.claimed]
    if share.failure:
        errors.append(Problem(str(job.path), 0, share.failure))
        incomplete = incomplete or Incomplete(path, share.failure)
    if incomplete is None and any(not IMPLICIT_MESSAGE.match(e.message) for e in errors):
        # clang went on past an error, but what it could not read is not checked
        first = next(e for e in errors if not IMPLICIT_MESSAGE.match(e.message))
        incomplete = Incomplete(path, first.message, first.line if shown_path(first.file) == path else 0)
    included = list(dict.fromkeys(unit.inclusions() + share.home_included))
    return Scanned(
        share.findings, errors, True, incomplete, share.expansions, _build_machine_headers(unit, job), included
    )


def _unsaved(job: ScanJob) -> str | None:
    """The text clang is to parse as the unit's file: None when the job's text
    is the file's as read (job.read_as), so that clang maps the file itself
    instead of being handed a copy (sqlite3.c: 8.6 MB encoded, then copied
    again by libclang, before the parse can start) and reads its bytes as the
    build's compiler does; else the job's own (--fix's candidates)."""
    return None if job.read_as is not None else job.text


def _changed_since_read(job: ScanJob) -> bool:
    """After clang read the unit's file itself (_unsaved gave it no text):
    the file is no longer the text the rules have (edited during the parse)."""
    return stamp(job.path) != job.read_as


def _parse_home(job: ScanJob, flags: list[str], extent: str):
    """The unit parsed for the source ABI, as far as extent (home.Home.parse)."""
    if extent == DIRECTIVES:
        text = directives_only(job.text)
        if text is None:  # no cut (the standard decides the lexing, or code may save a macro): Home parses more
            return None
    else:
        text = _unsaved(job)
    tu, _ = parse(
        str(job.path),
        job.pair.source.abi,
        flags,
        job.sysroot,
        text,
        bodies=extent == WHOLE,
        build_machine=True,
        preprocessor_record=True,
    )
    if text is None and _changed_since_read(job):
        return None
    return tu


@dataclass
class Share:
    """What the rules found in a unit, or one process's share of them."""

    findings: list[Finding]
    expansions: dict[Finding, tuple[str, set[tuple[str, int, int]]]]
    claimed: set[tuple[str, int, str]]  # clang's diagnostics the rules explained: (file, line, message)
    failure: str  # "" or why the rules stopped: "portkit's rules failed here (...)"
    home_included: list[Inclusion]  # what the source ABI's parse read, if one was made


def _check(unit: Unit, checks: Sequence[Check], text: str, home: Home) -> Share:
    """Every rule's work on the unit. In a unit of HOME_BESIDE_BYTES of text
    or more, while a worker of the scan is spare (as in _check_target), what
    needs no walk of the target's parse runs in a child forked at once,
    beside the walk: the rules that read the code's home (and the source
    ABI's parse they may need), and clang's diagnostics, which the rules
    explain from the declaration each one is in (sqlite3.c: the walk 0.15 s,
    the child 0.21 s)."""
    at_home = [c for c in checks if c.at_home]
    wanted = at_home or any(c.diagnostics for c in checks)
    if len(text) < HOME_BESIDE_BYTES or not wanted or not spare_workers():
        return _check_target(unit, checks, text, home)
    early = partial(_share, unit, None, at_home, text, home, diagnosed=checks)
    with Beside(early) as child:
        mine = _check_target(unit, [c for c in checks if not c.at_home], text, home, diagnose=False)
        theirs = child.result()
    if theirs is None:  # the child died: its share here, where a fault is reported as any other
        theirs = early()
    return _joined(mine, theirs)


def _check_target(unit: Unit, checks: Sequence[Check], text: str, home: Home, diagnose: bool = True) -> Share:
    """The rules' work on the unit as the walk of the target's parse hands it
    (and clang's diagnostics, if diagnose). The walk runs once; on a unit
    where it hands the rules SPLIT_NODES nodes or more, while a worker of the
    scan has nothing left to do (workers.spare_workers: the last files of a
    project), the rules that read loops, limits, unions and the calls of
    functions they name run in a child forked beside this process, on the
    same parse, on the spare worker's CPU. The rules that read implicit
    conversions stay together: they share the widths the unit works out for
    each one; so do the casts' (PK102 and PK702 read both, and a cast's
    questions are a conversion's), and the checks that share other work with
    them (Check.shares). Forked apart, each side would ask libclang again
    what the other already knows: this way little is (sqlite3.c: the child's
    0.13 s of rules cost 0.02 s more CPU than in one process)."""
    try:
        walked = _walk(unit, [c for c in checks if not c.at_home])
    except Exception as err:  # the walk tripped over this file's AST
        return Share([], {}, set(), _failed(err), [])

    def share(of: Sequence[Check]) -> Share:
        return _share(unit, walked, of, text, home, diagnosed=of if diagnose else ())

    beside = _beside_conversions(checks)
    if len(walked.selected) < SPLIT_NODES or not beside or len(beside) == len(checks) or not spare_workers():
        return share(checks)
    here = [c for c in checks if c not in beside]
    with Beside(lambda: share(beside)) as child:
        mine = share(here)
        theirs = child.result()
    if theirs is None:  # the child died: its share here, where a fault is reported as any other
        theirs = share(beside)
    return _joined(mine, theirs)


def _beside_conversions(checks: Sequence[Check]) -> list[Check]:
    """The checks that read no implicit conversion and no cast, and share no work with one that does."""
    shared = {c.shares for c in checks if c.conversions is not None and c.shares}
    return [c for c in checks if c.conversions is None and not set(CASTS) & set(c.nodes) and c.shares not in shared]


def _share(
    unit: Unit,
    walked: Walked | None,
    checks: Sequence[Check],
    text: str,
    home: Home,
    *,
    diagnosed: Sequence[Check],
) -> Share:
    """The rules of `checks` over the walked unit: its nodes, the whole unit,
    then the code's home where a rule reads it (the rules at home alone need
    no walk of the target); and clang's diagnostics, to the rules of
    `diagnosed` that explain them."""
    claimed: set[tuple[str, int, str]] = set()
    failure = ""
    try:
        away = [c for c in checks if not c.at_home]
        if walked is not None and away:
            # the walk's nodes first: the walk knows every node's parent, which the diagnostics' rules then ask
            _scan(unit, walked, away)
        claimed = _diagnostics(unit, diagnosed)
        at_home = [c for c in checks if c.at_home]
        if at_home and _read_at_home(text, home) and home.tu() is not None:
            home_unit = Unit(unit.ci, home.tu(), unit.pair, home, tops=own_declarations(home.tu()))
            _scan(home_unit, _walk(home_unit, at_home), at_home)
            unit.findings += [f for f in home_unit.findings if f not in unit.findings]
            for finding, (macro, uses) in home_unit.expansions.items():
                unit.expansions.setdefault(finding, (macro, set()))[1].update(uses)
    except Exception as err:  # a rule tripped over this file's AST: say so, keep what was found
        failure = _failed(err)
    home_included = inclusions(unit.ci, home.parsed()) if home.parsed() is not None else []
    return Share(unit.findings, unit.expansions, claimed, failure, home_included)


def _failed(err: Exception) -> str:
    return f"portkit's rules failed here ({type(err).__name__}: {err})"


def _joined(mine: Share, theirs: Share) -> Share:
    """Two shares of one unit as one (a share done here after its child died holds this one's findings too)."""
    findings = mine.findings + [f for f in theirs.findings if f not in set(mine.findings)]
    expansions = {f: (macro, set(uses)) for f, (macro, uses) in mine.expansions.items()}
    for finding, (macro, uses) in theirs.expansions.items():
        expansions.setdefault(finding, (macro, set()))[1].update(uses)
    home_included = list(dict.fromkeys(mine.home_included + theirs.home_included))
    return Share(findings, expansions, mine.claimed | theirs.claimed, mine.failure or theirs.failure, home_included)


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


def _scan(unit: Unit, walked: Walked, checks: Sequence[Check]) -> None:
    _dispatch(unit, walked, checks)
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


def _walk(unit: Unit, checks: Sequence[Check]) -> Walked:
    """Every node of the project's own declarations that the checks ask for:
    nodes by kind (binary and compound operators by operator), implicit
    conversions by the kinds of types they convert between. cparse.walk
    finds them in C; the unit keeps the walk for the nodes' parents."""
    ci = unit.ci
    kinds: set[int] = set()
    kinds_by_constant: set[int] = set()  # kinds wanted only with a constant operand
    operators: set[str] | None = set()
    by_constant: set[str] = set()  # operators wanted only with a constant operand
    constant_kinds, values, below = bytearray(KINDS), set(), False
    for check in checks:
        for name in check.nodes:
            kind = getattr(ci.CursorKind, name).value
            wanted = check.operators.get(name) if name in OPERATOR_KINDS else None
            if check.constants is not None and name not in OPERATOR_KINDS:
                kinds_by_constant.add(kind)
                continue
            kinds.add(kind)
            if name not in OPERATOR_KINDS:
                continue
            if check.constants is not None and wanted is not None:
                by_constant |= wanted
            else:
                operators = None if operators is None or wanted is None else operators | wanted
        if check.constants is not None:
            constant_kinds = bytearray(a | b for a, b in zip(constant_kinds, check.constants.kinds, strict=True))
            values |= set(check.constants.values)
            below = below or check.constants.below
    gated = by_constant or kinds_by_constant - kinds
    constants = (bytes(constant_kinds), tuple(sorted(values)), below) if gated else None
    wants_conversions = any(c.conversions is not None for c in checks)
    literals = any(c.literal_conversions for c in checks if c.conversions is not None)
    interesting = _interesting_conversions(unit) if wants_conversions else {}
    walked = cwalk(
        ci,
        unit.tu,
        unit.tops,
        kinds,
        operators,
        interesting,
        _callees(checks),
        constants,
        by_constant,
        kinds_by_constant - kinds,
        _pointer_casts(ci, checks),
        literals,
    )
    unit.walks.insert(0, walked)
    return walked


def _pointer_casts(ci, checks: Sequence[Check]) -> list[int] | None:
    """The cast kinds the walk hands over only where a pointer is made or
    unmade: when every check of that kind says so (None: no such kind)."""
    casts = {name for c in checks for name in c.nodes if name in CASTS}
    gated = [n for n in casts if all(c.pointer_casts for c in checks if n in c.nodes)]
    return [getattr(ci.CursorKind, n).value for n in gated] or None


def _callees(checks: Sequence[Check]) -> tuple[frozenset[str], bool] | None:
    """The calls the checks of CALL_EXPR are about, as the walk takes them
    (None: every call, as soon as one such check does not say)."""
    calling = [c for c in checks if "CALL_EXPR" in c.nodes]
    if any(c.callees is None for c in calling):
        return None
    wanted = [c.callees for c in calling if c.callees is not None]
    return frozenset().union(*(w.names for w in wanted)), any(w.variadic for w in wanted)


def _dispatch(unit: Unit, walked: Walked, checks: Sequence[Check]) -> None:
    """Each walked node to the checks that asked for its kind (and operator),
    once; each implicit conversion to the checks of conversions."""
    ci = unit.ci
    table: dict[int, list] = {}  # kind -> (handler, the operators it is about, None: all)
    for check in checks:
        for name, handler in check.nodes.items():
            wanted = check.operators.get(name) if name in OPERATOR_KINDS else None
            table.setdefault(getattr(ci.CursorKind, name).value, []).append((handler, wanted))
    conversions = [c.conversions for c in checks if c.conversions is not None]
    nobody: list = []
    for tag, node, parent, operator in walked.selected:
        if operator:  # the walk read it: rules need not ask libclang again
            unit.knows("operator", node, operator)
        if tag & KIND:
            for handler, wanted in table.get(node._kind_id, nobody):
                if wanted is None or operator in wanted:
                    handler(unit, node, parent)
        if tag & CONVERSION and conversions:
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
    ci = unit.ci  # the types asked in C: the bindings' .type searches a call's arguments for the unit
    conversion = Conversion(value, result, unit.width(cursor_type(ci, value)), unit.width(cursor_type(ci, result)))
    for check in checks:
        check(unit, conversion)
