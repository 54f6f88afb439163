"""Fixes for the findings whose fix is mechanical, each one checked before
it is offered: the fixed file must parse for both ABIs with no more errors
than before, and a scan of it must no longer report the finding nor report
anything new. A fix that fails either check is dropped and the finding
stays, with the reason.

The fixes (one function each, in the worker that parsed the file):
- PK201/PK202: the printf/scanf directive gets the argument's length
  modifier (%ld, %zu, %td, %jd) or, for a fixed-width type, its <inttypes.h>
  macro (PRId64, SCNu64), the string split around it;
- PK101: `(int) ptr` becomes `(intptr_t) ptr` (`uintptr_t` for an unsigned
  type), where nothing narrows the result afterwards;
- PK401: the literal 4 in an allocation or copy size becomes `sizeof *p` of
  the pointer the memory is for (`sizeof(T)` when that pointer has no name);
- PK403: 0xFFFFFFFF or 0x7FFFFFFF compared with a 32-bit value cast to a
  wider type becomes UINT32_MAX or INT32_MAX: 32 bits is what is meant.
An #include a fix needs (<stdint.h>, <inttypes.h>) is added once.
"""

from __future__ import annotations

import ctypes
import difflib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from portkit.commands.scan.edits import Edit, Overlap, apply, include_edit
from portkit.commands.scan.engine import QUIET, ScanJob, _flags, own_declarations, scan_unit
from portkit.commands.scan.home import Home
from portkit.commands.scan.messages import diagnostic_location, diagnostic_span, shown_path
from portkit.commands.scan.rules.pk401_pointer_size_literal import SIZED_CALLS
from portkit.commands.scan.unit import Unit
from portkit.core.errors import BadInput
from portkit.core.output import count, warn, write_atomically
from portkit.core.workers import Failed
from portkit.cparse.libclang import cindex, inclusions
from portkit.cparse.parse import parse, parse_in_workers
from portkit.cparse.source import decode_source
from portkit.findings.model import Finding, Location

FIXABLE = frozenset({"PK101", "PK201", "PK202", "PK401", "PK403"})
ROUNDS = 4  # checks of a file's fixes; each round drops the fixes that failed
WARNINGS = ["-Wformat", "-Wint-conversion"]
LENGTH = rb"(?P<length>hh|h|ll|l|j|z|t|L|q)?(?P<conv>[diouxX])"
PRINTF_SPEC = re.compile(rb"%(?P<flags>[-+ #0']*)(?P<width>\*|\d+)?(?P<precision>\.(?:\*|\d*))?" + LENGTH)
SCANF_SPEC = re.compile(
    rb"%(?P<flags>\*?)(?P<width>\d+)?(?P<precision>)(?P<length>hh|h|ll|l|j|z|t|L|q)?(?P<conv>[diouxX])"
)
# Typedefs with a length modifier of their own, and the <inttypes.h> suffix of the fixed-width ones.
MODIFIERS = {"size_t": "z", "ssize_t": "z", "ptrdiff_t": "t", "intmax_t": "j", "uintmax_t": "j"}
FIXED_WIDTH = re.compile(r"u?int(?:_least|_fast)?(8|16|32|64)_t|u?intptr_t")
SIMPLE_EXPRESSION = re.compile(rb"[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*)*")
MASK_NAMES = {0xFFFFFFFF: "UINT32_MAX", 0x7FFFFFFF: "INT32_MAX"}


@dataclass(frozen=True)
class FixTask:
    job: ScanJob
    findings: tuple[Finding, ...]  # the fixable findings in the job's own file


@dataclass
class FixResult:
    path: Path
    before: bytes  # the text clang read, as UTF-8
    after: bytes  # the same with the fixes that passed (== before: none)
    fixed: list[Finding] = field(default_factory=list)
    left: list[tuple[Finding, str]] = field(default_factory=list)  # not fixed, and why


@dataclass(frozen=True)
class Planned:
    finding: Finding
    edits: tuple[Edit, ...]
    header: str | None = None  # an #include it needs, when the unit lacks it


class CannotFix(Exception):
    """Why a finding has no mechanical fix here."""


def fix_unit(task: FixTask) -> FixResult:
    """The fixes of one file, planned on its parse and checked by parsing
    and scanning the fixed text again."""
    job = task.job
    data = job.text.encode("utf-8", "surrogatepass")
    result = FixResult(job.path, data, data)
    ci = cindex()
    flags = _flags(job.flags, job.pair.target.abi.triple) + list(QUIET) + WARNINGS
    tu, _ = parse(str(job.path), job.pair.target.abi, flags, job.sysroot, job.text, bodies=True)
    if tu is None:
        result.left = [(f, "the file did not parse") for f in task.findings]
        return result
    unit = Unit(ci, tu, job.pair, Home(ci, job.pair, lambda _extent: None), tops=own_declarations(tu))
    planner = Planner(unit, data, str(job.path))
    plans: list[Planned] = []
    for finding in task.findings:
        try:
            plans.append(planner.plan(finding))
        except CannotFix as why:
            result.left.append((finding, str(why)))
    plans = _without_overlaps(plans, result)
    baseline = _errors(job, data)
    before = Counter(_key(f) for f in scan_unit(job).findings)
    for _ in range(ROUNDS):
        if not plans:
            break
        candidate, shift = _applied(data, plans)
        failed = _failures(job, candidate, plans, shift, before, baseline)
        if not failed:
            result.after, result.fixed = candidate, [p.finding for p in plans]
            break
        result.left += [(p.finding, why) for p, why in failed.items()]
        plans = [p for p in plans if p not in failed]
    else:
        result.left += [(p.finding, "its fix could not be checked in time") for p in plans]
    return result


def _without_overlaps(plans: Sequence[Planned], result: FixResult) -> list[Planned]:
    """The plans whose edits touch bytes no earlier plan touches (two findings
    of one directive are one fix: the second is left)."""
    kept: list[Planned] = []
    for plan in plans:
        try:
            apply(result.before, [edit for other in [*kept, plan] for edit in other.edits])
        except Overlap:
            result.left.append((plan.finding, "another fix changes the same code"))
            continue
        kept.append(plan)
    return kept


def _applied(data: bytes, plans: Sequence[Planned]) -> tuple[bytes, tuple[int, int]]:
    """The text with every plan's edits and the #includes they need, and
    where lines moved: (line after which the includes went, lines added)."""
    edits = [edit for plan in plans for edit in plan.edits]
    headers = sorted({plan.header for plan in plans if plan.header})
    inserted = [include_edit(data, header) for header in headers]
    at = inserted[0].start if inserted else len(data)
    line = data[:at].count(b"\n")
    includes = Edit(at, at, b"".join(e.text for e in inserted)) if inserted else None
    return apply(data, [*edits, *([includes] if includes else [])]), (line, sum(e.text.count(b"\n") for e in inserted))


def _failures(
    job: ScanJob,
    candidate: bytes,
    plans: Sequence[Planned],
    shift: tuple[int, int],
    before: Counter,
    baseline: tuple[int, int],
) -> dict[Planned, str]:
    """The plans to drop: every one when the fixed text has more errors for
    either ABI; else those on a line where the scan still reports what they
    fixed or reports something new."""
    fixed_job = replace(job, text=candidate.decode("utf-8", "surrogatepass"), read_as=None)  # not the file's
    errors = _errors(fixed_job, candidate)
    if errors[0] > baseline[0] or errors[1] > baseline[1]:
        lines = {p.finding.location.line for p in plans}
        blamed = [p for p in plans if p.finding.location.line in lines] if len(plans) == 1 else list(plans)
        return dict.fromkeys(blamed, "the fixed file did not compile for both ABIs")
    after, (insert_line, added) = Counter(_key(f) for f in scan_unit(fixed_job).findings), shift

    def moved(line: int) -> int:
        return line + added if line > insert_line else line

    expected = Counter({(path, rule, moved(line)): n for (path, rule, line), n in before.items()})
    for plan in plans:
        location = plan.finding.location
        expected[(location.path, plan.finding.rule, moved(location.line))] -= 1
    bad_lines = {line for key, n in after.items() if n > expected.get(key, 0) for line in [key[2]]}
    if not bad_lines:
        return {}
    failed = {
        p: "the scan still found it, or something new, after the fix"
        for p in plans
        if moved(p.finding.location.line) in bad_lines
    }
    return failed or dict.fromkeys(plans, "the scan found something new after the fixes")


def _key(finding: Finding) -> tuple[str, str, int]:
    return finding.location.path, finding.rule, finding.location.line


def _errors(job: ScanJob, data: bytes) -> tuple[int, int]:
    """clang's errors in the text for the target and the source ABI."""
    text = data.decode("utf-8", "surrogatepass")
    counts = []
    for abi in (job.pair.target.abi, job.pair.source.abi):
        tu, errors = parse(str(job.path), abi, [*_flags(job.flags, abi.triple), "-w"], job.sysroot, text)
        counts.append(len(errors) if tu is not None else 1 << 30)
    return counts[0], counts[1]


class Planner:
    """The edits that fix one finding, from the unit's parse."""

    def __init__(self, unit: Unit, data: bytes, path: str) -> None:
        self.unit, self.data, self.path = unit, data, path
        self.ci = unit.ci
        self.shown = shown_path(path)
        self._headers: set[str] | None = None
        self._lines = data.splitlines(keepends=True)

    def plan(self, finding: Finding) -> Planned:
        fixers: dict[str, Callable[[Finding], Planned]] = {
            "PK201": lambda f: self.format(f, scanf=False),
            "PK202": lambda f: self.format(f, scanf=True),
            "PK101": self.pointer_cast,
            "PK401": self.size_literal,
            "PK403": self.mask,
        }
        fixer = fixers.get(finding.rule)
        if fixer is None:
            raise CannotFix("no mechanical fix for this rule")
        if finding.location.path != self.shown:
            raise CannotFix("in a header: --fix changes only the files it scans")
        if self._in_macro_definition(finding.location.line):
            raise CannotFix("written in a macro definition, whose other uses may differ")
        return fixer(finding)

    # ------------------------------------------------------------ printf, scanf

    def format(self, finding: Finding, scanf: bool) -> Planned:
        diag = next(
            (
                d
                for d in self.unit.tu.diagnostics
                if d.option == "-Wformat" and _same(diagnostic_location(d), finding.location)
            ),
            None,
        )
        if diag is None:
            raise CannotFix("clang's format check no longer points here")
        if any(_from_macro(self.ci, r.start) for r in diag.ranges) or _from_macro(self.ci, diag.location):
            raise CannotFix("written in a macro definition, whose other uses may differ")
        span = diagnostic_span(diag)
        directive = next((r for r in diag.ranges if span is None or _offsets(r) != _offsets(span)), None)
        if directive is None or not self._in_this_file(directive):
            raise CannotFix("the format string is not written here")
        if self._in_macro_definition(directive.start.line):
            raise CannotFix("written in a macro definition, whose other uses may differ")
        start, end = _offsets(directive)
        spec = (SCANF_SPEC if scanf else PRINTF_SPEC).fullmatch(self.data[start:end])
        if spec is None:
            raise CannotFix("the directive is not an integer conversion")
        literal = self._string_token(start, end)
        argument = self.unit.expression_at(diag)
        if argument is None:
            raise CannotFix("the argument is not written here")
        node = self.unit.strip(argument)
        if scanf:
            pointee = (
                node.type.get_canonical().get_pointee()
                if node.type.kind != self.ci.TypeKind.POINTER
                else node.type.get_pointee()
            )
            width = self.unit.width(pointee)
        else:
            width = self.unit.expression_width(argument)
        if not width.integer:
            raise CannotFix("the argument is no integer: its directive is a choice (%p, a cast)")
        length, suffix = self._length(width.spelling)
        conv = spec["conv"].decode()
        if conv in "di" and width.kind == "unsigned":
            conv = "u"
        elif conv == "u" and width.kind == "signed":
            conv = "d"
        head = b"%" + spec["flags"] + (spec["width"] or b"") + (spec["precision"] or b"")
        if suffix is None:
            return Planned(finding, (Edit(start, end, head + length.encode() + conv.encode()),))
        macro = f"{'SCN' if scanf else 'PRI'}{conv.lower() if scanf else conv}{suffix}".encode()
        if end + 1 == literal[1]:  # the directive ends the literal: no empty "" after the macro
            return Planned(finding, (Edit(start, end + 1, head + b'" ' + macro),), self._needs("inttypes.h"))
        return Planned(finding, (Edit(start, end, head + b'" ' + macro + b' "'),), self._needs("inttypes.h"))

    def _length(self, spelling: str) -> tuple[str, str | None]:
        """The length modifier (or <inttypes.h> suffix) of a type, through its typedefs."""
        chain = self.unit.typedef_chain(spelling)
        declaration = self.unit._typedef(chain[-1])
        if declaration is not None:  # the builtin type under the last typedef
            chain.append(declaration.underlying_typedef_type.get_canonical().spelling)
        for name in chain:
            if name in MODIFIERS:
                return MODIFIERS[name], None
            fixed = FIXED_WIDTH.fullmatch(name)
            if fixed:
                kind = "LEAST" if "least" in name else "FAST" if "fast" in name else ""
                return "", ("PTR" if "ptr" in name else kind + fixed[1])
            words = [word for word in name.split() if word != "signed"]
            if words and set(words) <= {"unsigned", "long", "int"} and words.count("long") in (1, 2):
                return "l" * words.count("long"), None
        raise CannotFix(f"'{spelling}' has no length modifier of its own (cast it, e.g. to intmax_t for %jd)")

    def _string_token(self, start: int, end: int) -> tuple[int, int]:
        """The byte range of the plain string literal holding [start, end)
        (the lexer starts at the line's start: inside a literal it would not
        know it is in one)."""
        line_start = self.data.rfind(b"\n", 0, start) + 1
        line_end = self.data.find(b"\n", end)
        extent = self.unit.tu.get_extent(self.path, (line_start, len(self.data) if line_end < 0 else line_end))
        for token in self.unit.tu.get_tokens(extent=extent):
            first, last = token.extent.start.offset, token.extent.end.offset
            if first <= start and end <= last:
                if token.kind.name != "LITERAL" or not self.data[first:last].startswith(b'"'):
                    raise CannotFix("the directive is not in a plain string literal")
                return first, last
        raise CannotFix("the directive is not in a string literal written here")

    # ------------------------------------------------------------ (int) ptr

    def pointer_cast(self, finding: Finding) -> Planned:
        cast = self._node(finding.location, ("CSTYLE_CAST_EXPR",))[0]
        tokens = list(cast.get_tokens())
        if not tokens or tokens[0].spelling != "(":
            raise CannotFix("the cast is not written here")
        depth, closing = 0, None
        for token in tokens:
            depth += {"(": 1, ")": -1}.get(token.spelling, 0)
            if depth == 0:
                closing = token
                break
        if closing is None:
            raise CannotFix("the cast's type could not be read")
        first, close = tokens[0].extent.end.offset, closing.extent.start.offset
        into = self.unit.width_of(cast)
        name = "uintptr_t" if into.kind == "unsigned" else "intptr_t"
        header = None if self.unit._typedef(name) is not None else "stdint.h"
        return Planned(finding, (Edit(first, close, name.encode()),), header)

    # ------------------------------------------------------------ malloc(n * 4)

    def size_literal(self, finding: Finding) -> Planned:
        literal, ancestors = self._node(finding.location, ("INTEGER_LITERAL",))
        start, end = _offsets(literal.extent)
        if self.data[start:end].rstrip(b"uUlL") != b"4":
            raise CannotFix("the size is not the literal 4")
        call_at = next(
            (i for i in range(len(ancestors) - 1, -1, -1) if ancestors[i].kind == self.ci.CursorKind.CALL_EXPR), None
        )
        if call_at is None:
            raise CannotFix("no allocation or copy around the size")
        call = ancestors[call_at]
        sized = SIZED_CALLS.get(self.unit.callee_name(call))
        if sized is None:
            raise CannotFix("no allocation or copy around the size")
        pointer_index = sized[1][0]  # the destination (the first pointer named), or -1: the result
        if pointer_index >= 0:
            pointer = self.unit.strip(self.unit.arguments(call)[pointer_index])
            words = self._text(pointer.extent)
            element = _element_type(self.ci, pointer.type)
        else:
            holder = ancestors[call_at - 1] if call_at > 0 else None
            words, element = self._destination(ancestors[:call_at])
            if holder is not None and element is None:
                element = _element_type(self.ci, holder.type)
        if words is not None and SIMPLE_EXPRESSION.fullmatch(words):
            size = b"sizeof *" + words
        elif element is not None:
            size = f"sizeof({element})".encode()
        else:
            raise CannotFix("the pointer the memory is for has no name or type here")
        return Planned(finding, (Edit(start, end, size),))

    def _destination(self, ancestors: Sequence) -> tuple[bytes | None, str | None]:
        """What an allocation's result is stored in: `p` of `p = malloc(...)` or
        `T *p = malloc(...)`; the element type of a cast around the call."""
        kinds = self.ci.CursorKind
        for node in reversed(ancestors):
            if node.kind in (kinds.UNEXPOSED_EXPR, kinds.PAREN_EXPR):
                continue
            if node.kind in (kinds.CSTYLE_CAST_EXPR, kinds.CXX_STATIC_CAST_EXPR):
                return None, _element_type(self.ci, node.type)
            if node.kind == kinds.VAR_DECL:
                return node.spelling.encode(), None
            if node.kind == kinds.BINARY_OPERATOR and self.unit.binary_operator(node) == "=":
                return self._text(self.unit.children(node)[0].extent), None
            return None, None
        return None, None

    # ------------------------------------------------------------ 0xFFFFFFFF

    def mask(self, finding: Finding) -> Planned:
        constant, ancestors = self._node(finding.location, ("INTEGER_LITERAL",))
        value = self.unit.value(constant)
        if value not in MASK_NAMES:
            raise CannotFix("no standard name says this limit is 32 bits")
        parent = next((a for a in reversed(ancestors) if a.kind.name not in ("UNEXPOSED_EXPR", "PAREN_EXPR")), None)
        if parent is None or parent.kind.name not in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR"):
            raise CannotFix("whether 32 bits or all of the value is meant cannot be told here")
        others = [c for c in self.unit.children(parent) if _offsets(c.extent) != _offsets(constant.extent)]
        other = self.unit.strip(others[0]) if others else None
        if other is None or other.kind.name != "CSTYLE_CAST_EXPR":
            raise CannotFix("whether 32 bits or all of the value is meant cannot be told here")
        inner = self.unit.width_of(self.unit.strip(self.unit.children(other)[-1]))
        if not (inner.integer and inner.source == inner.target == 4):
            raise CannotFix("whether 32 bits or all of the value is meant cannot be told here")
        start, end = _offsets(constant.extent)
        if not re.fullmatch(rb"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*", self.data[start:end]):
            raise CannotFix("the limit is not written here as a number (a macro?)")
        return Planned(finding, (Edit(start, end, MASK_NAMES[value].encode()),), self._needs("stdint.h"))

    # ------------------------------------------------------------ shared

    def _needs(self, header: str) -> str | None:
        """header, unless the unit already includes it (or <inttypes.h>, which includes <stdint.h>)."""
        if self._headers is None:
            self._headers = {Path(i.header).name for i in inclusions(self.ci, self.unit.tu)}
        present = {header} | ({"inttypes.h"} if header == "stdint.h" else set())
        return None if present & self._headers else header

    def _node(self, location: Location, kinds: Sequence[str]):
        """The node of one of `kinds` with exactly the finding's extent, and its ancestors."""
        wanted = ((location.line, location.column), (location.end_line, location.end_column))
        for top in self.unit.tops:
            if top.location.file is None or top.location.file.name != self.path:
                continue
            extent = top.extent
            if not (extent.start.line <= location.line <= extent.end.line):
                continue
            stack = [(top, ())]
            while stack:
                node, ancestors = stack.pop()
                span = (
                    (node.extent.start.line, node.extent.start.column),
                    (node.extent.end.line, node.extent.end.column),
                )
                if node.kind.name in kinds and span == wanted:
                    return node, list(ancestors)
                if span[0] <= wanted[0] and wanted[1] <= span[1]:
                    stack += [(child, (*ancestors, node)) for child in node.get_children()]
        raise CannotFix("the code the finding points at is not written here (a macro?)")

    def _text(self, extent) -> bytes | None:
        if not self._in_this_file(extent):
            return None
        start, end = _offsets(extent)
        return self.data[start:end].strip()

    def _in_this_file(self, extent) -> bool:
        start, end = extent.start, extent.end
        return start.file is not None and end.file is not None and start.file.name == end.file.name == self.path

    def _in_macro_definition(self, line: int) -> bool:
        """The line is part of a #define (itself or continued from one above)."""
        index = line - 1
        while 0 <= index < len(self._lines):
            if re.match(rb"\s*#\s*define\b", self._lines[index]):
                return True
            if index == 0 or not self._lines[index - 1].rstrip(b"\r\n").endswith(b"\\"):
                return False
            index -= 1
        return False


def _element_type(ci, t) -> str | None:
    """The spelling of what a pointer points to, or an array holds."""
    canonical = t.get_canonical()
    if canonical.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        return (
            t.element_type.spelling
            if t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY)
            else canonical.element_type.spelling
        )
    if canonical.kind != ci.TypeKind.POINTER:
        return None
    pointee = t.get_pointee() if t.kind == ci.TypeKind.POINTER else canonical.get_pointee()
    spelling = pointee.spelling
    return None if not spelling or spelling == "void" or "(" in spelling else spelling


def _from_macro(ci, location) -> bool:
    """The location is a macro's expansion: its text is written elsewhere (the #define)."""
    spelling = ci.conf.lib.clang_getSpellingLocation
    spelling.argtypes = [ci.SourceLocation, ctypes.POINTER(ctypes.c_void_p)] + [ctypes.POINTER(ctypes.c_uint)] * 3
    spelling.restype = None
    file, line, column, offset = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    spelling(location, ctypes.byref(file), ctypes.byref(line), ctypes.byref(column), ctypes.byref(offset))
    return offset.value != location.offset


def _offsets(extent) -> tuple[int, int]:
    return extent.start.offset, extent.end.offset


def _same(a: Location, b: Location) -> bool:
    return (a.line, a.column, a.end_line, a.end_column) == (b.line, b.column, b.end_line, b.end_column)


# ------------------------------------------------------------------ in the parent


@dataclass
class Fixes:
    """What --fix or --diff did over the whole scan."""

    results: list[FixResult]
    in_headers: list[Finding]  # fixable findings in files not scanned as units

    @property
    def changed(self) -> list[FixResult]:
        return [r for r in self.results if r.after != r.before]

    def to_json(self) -> dict:
        """The document's `fixes`: each fix made and each fixable finding left, with why."""
        left = [(f, why) for r in self.results for f, why in r.left]
        left += [(f, "in a header: --fix changes only the files it scans") for f in self.in_headers]
        return {
            "fixed": [_where(f) for r in self.changed for f in r.fixed],
            "left": [{**_where(f), "reason": why} for f, why in left],
        }

    def summary(self, wrote: bool) -> str:
        fixed = sum(len(r.fixed) for r in self.changed)
        files = ", ".join(shown_path(str(r.path)) for r in self.changed)
        left = sum(len(r.left) for r in self.results) + len(self.in_headers)
        verb = "fixed" if wrote else "fixes for"
        line = f"{verb} {count(fixed, 'finding')} in {count(len(self.changed), 'file')}" + (
            f" ({files})" if files else ""
        )
        return line + (f"; {count(left, 'fixable finding')} left as found (--format json says why)" if left else "")


def plan_fixes(work: Sequence[ScanJob], findings: Sequence[Finding], jobs: int, timeout: float | None) -> Fixes:
    """The checked fixes of every fixable finding, one worker task per file
    (the first unit of each path: a file scanned under several flags is
    fixed once)."""
    fixable = [f for f in findings if f.rule in FIXABLE]
    tasks: list[FixTask] = []
    taken: set[str] = set()
    for job in work:
        path = shown_path(str(job.path))
        mine = tuple(f for f in fixable if f.location.path == path)
        if mine and path not in taken:
            taken.add(path)
            tasks.append(FixTask(job, mine))
    outcomes = parse_in_workers(fix_unit, tasks, jobs, timeout)
    results = []
    for task, outcome in zip(tasks, outcomes, strict=True):
        if isinstance(outcome, Failed):
            data = task.job.text.encode("utf-8", "surrogatepass")
            outcome = FixResult(
                task.job.path, data, data, [], [(f, f"the parser {outcome.reason}") for f in task.findings]
            )
        results.append(outcome)
    return Fixes(results, [f for f in fixable if f.location.path not in taken])


def unified_diff(fixes: Fixes) -> str:
    """Every changed file as `diff -u` shows it, paths as a/PATH and b/PATH (git apply -p1, patch -p1)."""
    out: list[str] = []
    for result in fixes.changed:
        path = shown_path(str(result.path))
        before = result.before.decode("utf-8", "surrogatepass").splitlines(keepends=True)
        after = result.after.decode("utf-8", "surrogatepass").splitlines(keepends=True)
        out += difflib.unified_diff(before, after, f"a/{path}", f"b/{path}")
    return "".join(out)


def write_fixes(fixes: Fixes) -> None:
    """Each changed file replaced whole (atomically, its mode kept), in the
    encoding it was read in; a file changed since it was scanned is left
    alone, with a warning."""
    for result in fixes.changed:
        try:
            now = result.path.read_bytes()
        except OSError as err:
            raise BadInput(f"{result.path}: cannot read it again to fix it ({err.strerror})") from None
        text, codec = decode_source(now)
        if text.encode("utf-8", "surrogatepass") != result.before:
            warn(f"{result.path}: changed while it was scanned; not fixed")
            result.after, result.left = (
                result.before,
                [*result.left, *((f, "changed while scanned") for f in result.fixed)],
            )
            result.fixed = []
            continue
        fixed = result.after.decode("utf-8", "surrogatepass").encode(codec, "surrogateescape")
        write_atomically(result.path, fixed, str(result.path))


def _where(finding: Finding) -> dict:
    location = finding.location
    return {"rule": finding.rule, "path": location.path, "line": location.line, "column": location.column}
