"""`portkit scan`: 64-bit portability defects in C and C++ source, before they
ship (the IVI AArch64 porting field report: "incorrect length of the data
type": long and pointers, implicit sign extension, magic numbers, time_t).

Every translation unit is parsed once for the target ABI, in worker processes
(-j N); each rule fires only where the types involved really change width
between the two data models (--from ILP32 --to LP64 by default: AArch32 to
AArch64). Rules: `portkit scan --list-rules`, docs/rules.md.

Headers the target's sysroot lacks are looked for where the build machine
keeps its own (/usr/local/include, /usr/include), after the target's, as a
cross compiler does; the report names those it took from there. A file
clang could not read to its end (an #include not found, as before
./configure: nothing after it is checked; a parse error) or at all is
"incomplete": named in the report, and the scan cannot vouch for it.

Each file's findings are kept in a cache (beside -p's database, else in
~/.cache/portkit/scan) and reused while the file, its flags and every header
it includes are unchanged: a rescan after a one-file change parses one file.
--fix and --diff apply the fixes that are mechanical (format directives,
(intptr_t) casts, sizeof for a literal 4, UINT32_MAX), each one kept only if
the fixed file still compiles for both ABIs and no longer has the finding.

exit status: 0 every file scanned completely, no finding at or above
--fail-on; 1 findings at or above --fail-on; 2 bad usage, or an operand
that is no C or C++ file (the report of the others stands); 3 a file could
not be scanned completely (with --allow-incomplete: by --fail-on alone).
--diff: 0 once the diff is out."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from portkit.commands.scan.cache import cache_from, scan_jobs, user_cache
from portkit.commands.scan.catalog import scan_rules
from portkit.commands.scan.changed import changes_header, changes_since
from portkit.commands.scan.inputs import TranslationUnit, require_some, units
from portkit.commands.scan.job import ScanJob, Scanned, stamp
from portkit.commands.scan.messages import shown_path
from portkit.commands.scan.modelcache import models_directory
from portkit.commands.scan.models import MODEL_ABIS, ModelPair, probe_pair, resolve_abi
from portkit.commands.scan.options import add_fix_options, add_rescan_options
from portkit.core.errors import BadInput, Exit
from portkit.core.output import count, deliver, error, tell, warn
from portkit.core.progress import StatusLine
from portkit.core.workers import Failed
from portkit.cparse.options import add_source_options, check_sysroot, given_flags, jobs, parse_timeout
from portkit.cparse.source import read_source
from portkit.findings.model import Finding, Incomplete
from portkit.findings.report import add_findings_command, finish
from portkit.findings.selection import active_rules
from portkit.findings.sources import SourceFiles
from portkit.findings.triage import triage

SCHEMA = "portkit.scan/1"
ERRORS_SHOWN = 3  # clang errors per file; the rest are counted
INCOMPLETE_SHOWN = 3  # files not checked completely named in the text header; JSON has them all
SUMMARY = "64-bit portability defects in C/C++ (ILP32 -> LP64 by default), few false alarms"
EXAMPLES = (
    "examples:\n"
    "  portkit scan examples/legacy32/                 ILP32 (arm) -> LP64 (aarch64)\n"
    "  portkit scan -p build/ --fail-on error          each file's own flags, for CI\n"
    "  portkit scan src/ --to LLP64                    the same code on Win64\n"
    "  portkit scan src/ --format sarif -o scan.sarif  for code-scanning dashboards\n"
    "  portkit scan src/ --baseline known.json         only what known.json lacks\n"
    "  portkit scan -p build/ --changed-since main     a pull request's findings\n"
    "  portkit scan src/ --diff > port.patch           the mechanical fixes, checked\n"
    "  portkit scan src/ --fix                         apply them; report the rest\n"
    "  portkit scan --list-rules"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    rules = scan_rules(user_cache())
    parser = add_findings_command(
        subparsers,
        "scan",
        SUMMARY,
        __doc__,
        EXAMPLES,
        run,
        runs_on="host",
        schema=SCHEMA,
        rules=rules,
        tracks_incomplete=True,
    )
    # the rules as data; worker_host: the process cli started to fork the workers (core.workers.Host)
    parser.set_defaults(rules=rules, worker_host=None)
    parser.add_argument("inputs", nargs="*", type=Path, metavar="FILE_OR_DIR")
    models = ", ".join(f"{m} ({a})" for m, a in MODEL_ABIS.items())
    parser.add_argument(
        "--from",
        dest="from_model",
        default="ILP32",
        metavar="MODEL",
        help=f"where the code works today: {models}, or an ABI `portkit layout` knows (default ILP32)",
    )
    parser.add_argument("--to", dest="to_model", default="LP64", metavar="MODEL", help="where it moves (default LP64)")
    add_source_options(parser)
    add_rescan_options(parser)
    add_fix_options(parser)


def run(args: argparse.Namespace) -> int:
    source, target = resolve_abi(args.from_model, "--from"), resolve_abi(args.to_model, "--to")
    if source.name == target.name and source.flags == target.flags:
        raise BadInput(f"--from and --to are the same ABI ({source.name}): nothing can change between them")
    check_sysroot(args)
    changes = changes_since(args.changed_since) if args.changed_since is not None else None
    problems: list[str] = []  # warnings: clang's errors, unreadable files
    refused: list[str] = []  # operands that are no C or C++ file: errors
    found = units(args.inputs, args.compile_commands, given_flags(args), problems, refused, every_reading=True)
    require_some(found, refused + problems)
    pair = probe_pair(source, target, args.sysroot, models_directory(user_cache()))
    active = frozenset(rule.id for rule in active_rules(args.rules, args.select, args.ignore))
    incomplete: list[Incomplete] = []
    cache = cache_from(args, problems)
    # the longest files first: two workers then end together, not one waiting for the other
    work = sorted(_jobs(found, pair, active, args.sysroot, problems, incomplete), key=lambda j: -len(j.text))
    with StatusLine(quiet=args.quiet) as status:
        outcomes = scan_jobs(work, cache, jobs(args), parse_timeout(args), _files_done(status, work), args.worker_host)
    findings, scanned, taken = _gather(work, outcomes.results, problems, incomplete)
    if cache is not None and cache.unwritable:
        problems.append(cache.unwritable)
    problems[:] = dict.fromkeys(problems)  # a header's error, met through every unit that includes it, once
    # a file compiled several ways and incomplete in more than one is named once
    incomplete[:] = {item.path: item for item in reversed(incomplete)}.values()
    for line in problems if args.fixes is None else ():  # after --fix, the first scan said them
        warn(line)
    for line in refused:
        error(line)
    if scanned == 0:
        more = f" (and {count(len(incomplete) - 1, 'more file')}, above)" if len(incomplete) > 1 else ""
        raise BadInput(f"scan: no file could be scanned: {incomplete[0]}{more}")
    incomplete.sort(key=lambda item: item.path)
    extra = {
        "models": {"from": _model_json(pair.source.abi), "to": _model_json(pair.target.abi)},
        "inputs": len({unit.path for unit in found}),
        "compile_commands": len(found),
        "scanned": scanned,
        "problems": refused + problems,
        "build_machine_headers": taken,
    }
    if cache is not None:
        extra["cache"] = cache.to_json()
    if args.fix or args.diff:
        return _fix(args, work, findings)
    if args.fixes is not None:
        extra["fixes"] = args.fixes
    shown_header = header
    if changes is not None:
        affected = changes.affected(outcomes.headers_of)
        findings, incomplete = changes.keep(findings, incomplete, affected)
        extra["changed_since"] = changes.to_json(affected)
        shown_header = changes_header(header)
    code = finish(
        args,
        schema=SCHEMA,
        rules=args.rules,
        findings=findings,
        extra=extra,
        text_header=shown_header,
        incomplete=incomplete,
        texts_read=_read_unchanged(work),
    )
    if incomplete and not args.allow_incomplete:
        error(what_to_do(incomplete, extra["inputs"], args.compile_commands is not None))
    return Exit.USAGE if refused else code  # the report stands, but an operand was not C


def what_to_do(incomplete: Sequence[Incomplete], inputs: int, with_database: bool) -> str:
    """The one line that ends an incomplete scan: how many, the first and why, and the way out.
    `scan: 1 of 2 files could not be read to the end (a.c: config.h not found), so not all
    of it was checked: run the project's configure and pass -p BUILD_DIR ..., or -I DIR ...;
    --allow-incomplete reports what was checked and exits by --fail-on`"""
    first = incomplete[0]
    why = f"{first.path}: {first.reason.split('; ')[0]}"
    more = f", and {count(len(incomplete) - 1, 'more')}" if len(incomplete) > 1 else ""
    head = f"scan: {len(incomplete)} of {count(inputs, 'file')} could not be read to the end ({why}{more})"
    reasons = " ".join(item.reason for item in incomplete)
    ways = []
    if " not found" in reasons:
        if not with_database:
            ways.append("run the project's configure and pass -p BUILD_DIR (its compile_commands.json)")
        ways.append("-I DIR for headers outside the target's sysroot")
    elif not with_database:
        ways.append("pass the build's -D and -I, or -p BUILD_DIR with its compile_commands.json")
    if "the parser " in reasons:
        ways.append("--parse-timeout S for a file that takes longer")
    return (
        f"{head}, so not all of it was checked: {', or '.join(ways)}; "
        "--allow-incomplete reports what was checked and exits by --fail-on"
    )


def _fix(args: argparse.Namespace, work: Sequence[ScanJob], findings: list[Finding]) -> int:
    """--diff: the checked fixes as a diff, on stdout or -o. --fix: the files
    rewritten, then the scan again, reporting what is left (fixed files have
    moved lines; the cache makes the rest cheap)."""
    from portkit.commands.scan.fix import plan_fixes, unified_diff, write_fixes  # only here: difflib, edits

    shown = triage(
        findings,
        args.rules,
        select=args.select,
        ignore=args.ignore,
        baseline=args.baseline,
        sources=SourceFiles(),
        cwd=Path.cwd(),
    ).shown
    with StatusLine(quiet=args.quiet) as status:
        status.show(f"scan: checking the fixes of {count(len(shown), 'finding')}", now=True)
        fixes = plan_fixes(work, [s.finding for s in shown], jobs(args), parse_timeout(args))
    if args.diff:
        deliver(unified_diff(fixes), args.output)
        tell("note", fixes.summary(wrote=False))
        return Exit.OK
    write_fixes(fixes)
    tell("note", fixes.summary(wrote=True))
    args.fix, args.fixes = False, fixes.to_json()
    return run(args)


def header(document: dict) -> list[str]:
    """`scanned 2 of 3 files completely for ILP32 (arm) -> LP64 (aarch64); 1 incomplete: a.c (config.h not found)`;
    `scanned 14 of 14 files (23 compile commands) for ...` where the build compiles files in several ways."""
    source, target = document["models"]["from"], document["models"]["to"]
    direction = f"{source['data_model']} ({source['name']}) -> {target['data_model']} ({target['name']})"
    incomplete = [Incomplete(**item) for item in document["incomplete"]]
    inputs = document["inputs"]
    files = count(inputs, "file")
    if document["compile_commands"] > inputs:  # files the build compiles in several ways, each scanned
        files += f" ({document['compile_commands']} compile commands)"
    taken = document.get("build_machine_headers") or []
    borrowed = [f"headers the target's sysroot lacks, taken from this machine: {', '.join(taken)}"] if taken else []
    if not incomplete:
        return [f"scanned {inputs} of {files} for {direction}", *borrowed, ""]
    scanned = f"scanned {inputs - len(incomplete)} of {files} completely for {direction}"
    return [f"{scanned}; {len(incomplete)} incomplete: {listed(incomplete)}", *borrowed, ""]


def listed(incomplete: Sequence[Incomplete]) -> str:
    """`a.c (config.h not found), b.c (...), c.c (...) and 4 more (--format json lists them all)`."""
    shown = ", ".join(map(str, incomplete[:INCOMPLETE_SHOWN]))
    more = len(incomplete) - INCOMPLETE_SHOWN
    return shown + (f" and {more} more (--format json lists them all)" if more > 0 else "")


def _jobs(
    found: Sequence[TranslationUnit],
    pair: ModelPair,
    rules: frozenset[str],
    sysroot: Path | None,
    problems: list[str],
    incomplete: list[Incomplete],
) -> list[ScanJob]:
    work = []
    for unit in found:
        before = stamp(unit.path)
        try:
            text = read_source(unit.path, empty_ok=True)
        except BadInput as err:  # "PATH: reason"
            problems.append(str(err))
            incomplete.append(Incomplete(shown_path(str(unit.path)), str(err).removeprefix(f"{unit.path}: ")))
            continue
        # unchanged while read: the worker reads it again rather than be sent it (job.sent)
        read_as = before if before is not None and stamp(unit.path) == before else None
        work.append(ScanJob(unit.path, text, unit.flags, pair, sysroot, rules, read_as))
    return work


def _read_unchanged(work: Sequence[ScanJob]) -> dict[str, str]:
    """The units' texts as read from their files, for the report's lines (by the path findings show)."""
    return {shown_path(str(job.path)): job.text for job in work if job.read_as is not None}


def _gather(
    work: Sequence[ScanJob], outcomes: Sequence[Scanned | Failed], problems: list[str], incomplete: list[Incomplete]
) -> tuple[list[Finding], int, list[str]]:
    """Findings of every unit, those in a shared header (or made by a shared
    macro) once; clang's errors as problems; the units not checked
    completely, and why; the headers taken from the build machine."""
    seen: dict[tuple, Finding] = {}
    macros: dict[tuple, tuple[str, set]] = {}  # a finding's key -> its macro and every use that made it
    taken: set[str] = set()
    scanned: set[str] = set()
    for job, outcome in zip(work, outcomes, strict=True):
        if isinstance(outcome, Failed):
            problems.append(f"{job.path}: the parser {outcome.reason}")
            incomplete.append(Incomplete(shown_path(str(job.path)), f"the parser {outcome.reason}"))
            continue
        problems.extend(str(e) for e in outcome.errors[:ERRORS_SHOWN])
        if len(outcome.errors) > ERRORS_SHOWN:
            problems.append(f"{job.path}: {count(len(outcome.errors) - ERRORS_SHOWN, 'more error')}")
        if outcome.incomplete is not None:
            incomplete.append(outcome.incomplete)
        if not outcome.parsed:
            continue
        scanned.add(str(job.path))
        taken.update(outcome.build_machine_headers)
        for finding in outcome.findings:
            location = finding.location
            key = (finding.rule, location.path, location.line, location.column, finding.message)
            seen.setdefault(key, finding)
            if finding in outcome.expansions:
                name, uses = outcome.expansions[finding]
                macros.setdefault(key, (name, set()))[1].update(uses)
    for key, (name, uses) in macros.items():
        finding = seen[key]
        seen[key] = replace(finding, message=f"{finding.message} ({in_macro(name, uses)})")
    return list(seen.values()), len(scanned), sorted(taken)


def in_macro(name: str, uses: set[tuple[str, int, int]]) -> str:
    """`in macro YY_USER_ACTION, expanded 50 times (first at lexer.c:957)`."""
    path, line, _ = min(uses)
    if len(uses) == 1:
        return f"in macro {name}, expanded once, at {path}:{line}"
    return f"in macro {name}, expanded {len(uses)} times (first at {path}:{line})"


def _model_json(abi) -> dict:
    return {"name": abi.name, "triple": abi.triple, "data_model": abi.data_model}


def _files_done(status: StatusLine, work: Sequence[ScanJob]) -> Callable[[int], None]:
    """`scan: 12/340 files  src/net/socket.c` on the status line as each file ends."""
    finished = 0

    def done(index: int) -> None:
        nonlocal finished
        finished += 1
        status.show(f"scan: {finished}/{len(work)} files  {work[index].path}", now=finished == len(work))

    return done
