"""The scan cache: a unit's findings kept from its last scan and reused while
nothing that decides them has changed, so a rescan after a one-file change
parses one file.

An entry is kept per slot: the unit's path, its flags, the two data models
(with every size their probes found), the rules selected, the working
directory and portkit itself (its version, libclang's, and the text of the
code that scans). The entry holds what the findings were made from: a hash
of the unit's text, of every header either parse read (the target's and,
where a rule asked, the source ABI's), and the paths the preprocessor
looked at first and found nothing (a header added there later would be
read instead). It is reused only when all of these are as they were;
anything else is a miss, and the new result replaces the entry. A unit
whose parse stopped early (a missing header) is never kept: what it lacked
is not a file that can be hashed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import portkit
from portkit.commands.scan.job import ScanJob, Scanned, received, sent
from portkit.core.errors import BadInput
from portkit.core.workers import Failed, Host
from portkit.cparse.libclang import Inclusion, cindex, library_file
from portkit.cparse.parse import Problem, build_machine_includes, parse_in_workers, system_includes
from portkit.findings.model import Finding

SCHEMA = "portkit.scan-cache/1"
DIRECTORY_NAME = ".portkit-cache"  # beside a compile database
# The code whose change changes findings: the scan command, C parsing, the findings model.
SCANNING_CODE = ("commands/scan", "cparse", "findings")
INCLUDE_LINE = re.compile(rb'^\s*#\s*(include|include_next|import)\s*([<"])([^>"]+)[>"]')
# Options naming a directory the preprocessor searches -> the list it joins
# (longer names first: "-isystem" is no "-I" with a value).
SEARCH_OPTIONS = (("-idirafter", "after"), ("-iquote", "quote"), ("-isystem", "angle"), ("-I", "angle"))


@dataclass(frozen=True)
class Recorded:
    """What a unit's findings were made from, beyond its own text."""

    headers: dict[str, str]  # every header read -> hash of its bytes
    absent: tuple[str, ...]  # paths searched before a header was found, which did not exist


@dataclass
class Fresh:
    """A worker's result with what the cache needs to keep it."""

    scanned: Scanned
    headers: tuple[str, ...]  # every header the parses read
    recorded: Recorded | None  # None: not to be kept (an incomplete parse)


@dataclass
class Outcomes:
    """Each job's result (in the jobs' order), and the headers each unit read
    (by the unit's real path), for --changed-since."""

    results: list[Scanned | Failed]
    headers_of: dict[str, tuple[str, ...]]


def scan_jobs(
    work: Sequence[ScanJob],
    cache: ScanCache | None,
    jobs: int,
    timeout: float | None,
    done: Callable[[int], None] | None = None,
    host: Host | None = None,
) -> Outcomes:
    """Every job scanned, or taken from the cache where nothing it was made
    from has changed; the workers start only for the others (forked by host,
    when the program started one)."""
    results: list[Scanned | Failed | None] = [None] * len(work)
    headers_of: dict[str, tuple[str, ...]] = {}
    if cache is not None:
        for index, job in enumerate(work):
            kept = cache.lookup(job)
            if kept is not None:
                results[index], headers_of[os.path.realpath(job.path)] = kept
                if done is not None:
                    done(index)
    missed = [index for index, result in enumerate(results) if result is None]
    if missed:
        report = (lambda k: done(missed[k])) if done is not None else None
        # without a cache, the workers skip hashing every header and probing the search path
        scan = scan_and_record if cache is not None else scan_alone
        fresh = parse_in_workers(scan, [sent(work[i]) for i in missed], jobs, timeout, report, host)
        for index, outcome in zip(missed, fresh, strict=True):
            if isinstance(outcome, Failed):
                results[index] = outcome
                continue
            results[index] = outcome.scanned
            headers_of[os.path.realpath(work[index].path)] = outcome.headers
            if cache is not None:
                cache.store(work[index], outcome)
    return Outcomes([r for r in results if r is not None], headers_of)


def scan_alone(job: ScanJob) -> Fresh:
    """scan_unit, with the headers it read (for --changed-since), not to be kept."""
    from portkit.commands.scan.engine import scan_unit  # in the workers: the parent never needs the rules

    job_or_changed = received(job)
    if isinstance(job_or_changed, Scanned):
        return Fresh(job_or_changed, (), None)
    scanned = scan_unit(job_or_changed)
    headers = tuple(dict.fromkeys(os.path.normpath(i.header) for i in scanned.included))
    scanned.included = []  # the parent needs only their names
    return Fresh(scanned, headers, None)


def scan_and_record(job: ScanJob) -> Fresh:
    """scan_unit, then (still in the worker) the hashes and probes that let
    the result be reused: the parent only writes it."""
    from portkit.commands.scan.engine import scan_unit  # in the workers: the parent never needs the rules

    job_or_changed = received(job)
    if isinstance(job_or_changed, Scanned):
        return Fresh(job_or_changed, (), None)
    job = job_or_changed
    scanned = scan_unit(job)
    headers = tuple(dict.fromkeys(os.path.normpath(i.header) for i in scanned.included))
    included, scanned.included = scanned.included, []  # the parent needs only the record
    if not scanned.parsed or scanned.incomplete is not None:
        return Fresh(scanned, headers, None)
    files = FileFacts()
    digests = {header: files.digest(header) for header in headers}
    if any(digest is None for digest in digests.values()):
        return Fresh(scanned, headers, None)  # a header vanished during the scan
    absent = searched_and_absent(job, included, files)
    return Fresh(scanned, headers, Recorded(digests, tuple(sorted(absent))))  # type: ignore[arg-type]


class FileFacts:
    """Hashes and existence of files, each asked of the disk once per run."""

    def __init__(self) -> None:
        self._digests: dict[str, str | None] = {}
        self._exists: dict[str, bool] = {}
        self._lines: dict[str, list[bytes]] = {}

    def digest(self, path: str) -> str | None:
        if path not in self._digests:
            try:
                self._digests[path] = hashlib.blake2b(Path(path).read_bytes(), digest_size=20).hexdigest()
            except OSError:
                self._digests[path] = None
        return self._digests[path]

    def exists(self, path: str) -> bool:
        if path not in self._exists:
            self._exists[path] = os.path.exists(path)
        return self._exists[path]

    def line(self, path: str, number: int) -> bytes:
        if path not in self._lines:
            try:
                self._lines[path] = Path(path).read_bytes().splitlines()
            except OSError:
                self._lines[path] = []
        lines = self._lines[path]
        return lines[number - 1] if 0 < number <= len(lines) else b""


def searched_and_absent(job: ScanJob, included: Iterable[Inclusion], files: FileFacts) -> set[str]:
    """For each #include, the places the preprocessor looked before the one
    it found, as paths that did not exist: the includer's own directory for
    "", then the -iquote, -I and -isystem directories, the targets' system
    headers, then -idirafter. An #include whose name comes from a macro is
    not probed (its header's hash still guards it)."""
    quote, angle, after = search_directories(job)
    absent: set[str] = set()
    for inclusion in included:
        spelled = INCLUDE_LINE.match(files.line(inclusion.file, inclusion.line))
        if spelled is None:
            continue
        name = spelled[3].decode("utf-8", "replace")
        own = [os.path.dirname(inclusion.file)] if spelled[2] == b'"' else []
        found = os.path.normpath(inclusion.header)
        for directory in [*own, *(quote if spelled[2] == b'"' else []), *angle, *after]:
            candidate = os.path.normpath(os.path.join(directory, name))
            if candidate == found:
                break
            if not files.exists(candidate):
                absent.add(candidate)
    return absent


def search_directories(job: ScanJob) -> tuple[list[str], list[str], list[str]]:
    """The -iquote, the -I/-isystem plus system, and the -idirafter directories
    of a job, absolute (relative ones from its -working-directory)."""
    flags = list(job.flags)
    base = os.getcwd()
    dirs: dict[str, list[str]] = {"quote": [], "angle": [], "after": []}
    pending: list[str] | None = None
    for index, flag in enumerate(flags):
        if pending is not None:
            pending.append(flag)
            pending = None
            continue
        if flag == "-working-directory" and index + 1 < len(flags):
            base = os.path.join(base, flags[index + 1])
        for option, kind in SEARCH_OPTIONS:
            if flag == option:
                pending = dirs[kind]
                break
            if flag.startswith(option):
                dirs[kind].append(flag[len(option) :])
                break
    quote, angle, after = dirs["quote"], dirs["angle"], dirs["after"]
    cxx = job.path.suffix not in (".c", ".h")
    for abi in (job.pair.target.abi, job.pair.source.abi):
        angle += system_includes(abi, job.sysroot, cxx)
    for abi in (job.pair.target.abi, job.pair.source.abi):  # searched after the targets' own, as parse does
        angle += build_machine_includes(abi, job.sysroot, cxx)
    absolute = [
        [os.path.normpath(os.path.join(base, d)) for d in dirs if d and not d.startswith("=")]
        for dirs in (quote, angle, after)
    ]
    return absolute[0], absolute[1], absolute[2]


@dataclass
class ScanCache:
    """Entries in one directory, one file per slot; None directory: no cache."""

    directory: Path
    tool: str  # the fingerprint of portkit's scanning code and libclang
    files: FileFacts = field(default_factory=FileFacts)
    hits: int = 0
    stored: int = 0
    unwritable: str = ""  # why entries could not be written (once), else ""

    def to_json(self) -> dict:
        """The document's `cache`: where it is, and how many units it gave and took."""
        return {"directory": str(self.directory), "reused": self.hits, "stored": self.stored}

    def slot(self, job: ScanJob) -> str:
        pair = job.pair
        identity = [
            self.tool,
            os.getcwd(),
            os.path.abspath(job.path),
            list(job.flags),
            [_model_identity(pair.source), _model_identity(pair.target)],
            str(job.sysroot or ""),
            sorted(job.rules),
        ]
        return hashlib.blake2b(json.dumps(identity).encode(), digest_size=20).hexdigest()

    def _entry_path(self, job: ScanJob) -> Path:
        key = self.slot(job)
        return self.directory / key[:2] / f"{key}.json"

    def lookup(self, job: ScanJob) -> tuple[Scanned, tuple[str, ...]] | None:
        """The kept result and the headers it was made from, when the unit,
        every header it read and every path searched before them are as they
        were; else None."""
        try:
            entry = json.loads(self._entry_path(job).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("schema") != SCHEMA or entry.get("source") != text_digest(job.text):
            return None
        headers, absent = entry.get("headers"), entry.get("absent")
        if not isinstance(headers, dict) or not isinstance(absent, list):
            return None
        if any(self.files.digest(str(path)) != digest for path, digest in headers.items()):
            return None
        if any(self.files.exists(str(path)) for path in absent):
            return None
        try:
            scanned = _scanned_from_json(entry.get("result"))
        except (ValueError, TypeError, BadInput):
            return None  # an entry of another shape: scanned again and replaced
        self.hits += 1
        return scanned, tuple(entry["headers"])

    def store(self, job: ScanJob, fresh: Fresh) -> None:
        if fresh.recorded is None or self.unwritable:
            return
        entry = {
            "schema": SCHEMA,
            "path": str(job.path),
            "source": text_digest(job.text),
            "headers": fresh.recorded.headers,
            "absent": list(fresh.recorded.absent),
            "result": _scanned_to_json(fresh.scanned),
        }
        target = self._entry_path(job)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}")
            temporary.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(temporary, target)  # a reader sees the old entry or the new one
        except OSError as err:
            self.unwritable = f"{self.directory}: cannot write the scan cache there ({err.strerror})"
            return
        self.stored += 1


def open_cache(directory: Path) -> ScanCache:
    """The cache in `directory`, made if missing; one error line when it cannot be."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise BadInput(f"--cache {directory}: is a file, not a directory") from None
    except OSError as err:
        raise BadInput(f"--cache {directory}: cannot create the directory ({err.strerror})") from None
    tag = directory / "CACHEDIR.TAG"  # backup tools skip a directory so marked
    if not tag.exists():
        with contextlib.suppress(OSError):  # read-only: lookups still work, stores say why they did not
            tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n# portkit scan's cache: safe to delete\n")
    return ScanCache(directory, tool_fingerprint())


def default_directory(database: Path | None) -> Path:
    """Beside the compile database (its build directory) when there is one,
    else under the user's cache directory ($XDG_CACHE_HOME, ~/.cache)."""
    if database is not None:
        return (database if database.is_dir() else database.parent) / DIRECTORY_NAME
    return user_cache() / "scan"


def user_cache() -> Path:
    """$XDG_CACHE_HOME/portkit, else ~/.cache/portkit."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "portkit"


def tool_fingerprint() -> str:
    """portkit's version, libclang's file (its path, size and time: another
    build or version of it is another file), and the text of the code that
    makes findings: a portkit built from another commit never reuses an
    entry. libclang is not loaded for it: the workers' parent loads it."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(portkit.__version__.encode())
    library = library_file()
    try:
        st = os.stat(library)
        digest.update(f"{library}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    except OSError:  # a name the dynamic loader looks up: loaded here to ask its version
        digest.update(clang_version(cindex()).encode())
    package = Path(portkit.__file__).parent
    code = [path for part in SCANNING_CODE for path in sorted((package / part).rglob("*.py"))]
    code += sorted(package.glob("_clangwalk*"))  # the walk in C decides which nodes the rules see
    for path in code:
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def clang_version(ci) -> str:
    """libclang's version string ("clang version 18.1.1"), a call the bindings leave undeclared."""
    function = ci.conf.lib.clang_getClangVersion
    function.argtypes, function.restype = [], ci._CXString
    return ci._CXString.from_result(function())


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


def _model_identity(model) -> list:
    abi = model.abi
    return [abi.name, abi.triple, abi.clang_triple, list(abi.flags), model.builtins, model.typedefs]


def _scanned_to_json(scanned: Scanned) -> dict:
    return {
        "findings": [f.to_json() for f in scanned.findings],
        "errors": [[e.file, e.line, e.message, e.fatal] for e in scanned.errors],
        "parsed": scanned.parsed,
        # a macro's finding by its index in findings, with the macro and every use that made it
        "expansions": [
            [scanned.findings.index(finding), macro, sorted(uses)]
            for finding, (macro, uses) in scanned.expansions.items()
            if finding in scanned.findings
        ],
        "build_machine_headers": scanned.build_machine_headers,
    }


def _scanned_from_json(data: object) -> Scanned:
    """A kept result; ValueError or BadInput for anything of another shape."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    findings, errors = data.get("findings"), data.get("errors")
    if not isinstance(findings, list) or not isinstance(errors, list):
        raise ValueError("findings and errors are lists")
    problems = []
    for error in errors:
        if not (isinstance(error, list) and len(error) == 4 and isinstance(error[1], int)):
            raise ValueError("an error is [file, line, message, fatal]")
        problems.append(Problem(str(error[0]), error[1], str(error[2]), bool(error[3])))
    kept = [Finding.from_json(f) for f in findings]
    expansions: dict[Finding, tuple[str, set[tuple[str, int, int]]]] = {}
    for item in data.get("expansions", []):
        index, macro, uses = item
        if not isinstance(index, int) or not 0 <= index < len(kept) or not isinstance(macro, str):
            raise ValueError("an expansion is [finding index, macro, uses]")
        expansions[kept[index]] = (macro, {(str(p), int(line), int(column)) for p, line, column in uses})
    taken = data.get("build_machine_headers", [])
    if not isinstance(taken, list):
        raise ValueError("build_machine_headers is a list")
    return Scanned(kept, problems, bool(data.get("parsed")), None, expansions, [str(h) for h in taken])


def cache_from(args, warnings: list[str]) -> ScanCache | None:
    """The cache the options ask for: none with --no-cache, --cache DIR
    (an error when it cannot be made), else the default place (a warning and
    no cache when it cannot be made there: a read-only home must not stop a
    scan)."""
    if args.no_cache:
        return None
    if args.cache is not None:
        return open_cache(args.cache)
    directory = default_directory(args.compile_commands)
    try:
        return open_cache(directory)
    except BadInput:
        warnings.append(f"{directory}: cannot keep the scan cache there; --cache DIR puts it elsewhere")
        return None
