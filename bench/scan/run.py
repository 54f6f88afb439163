"""`portkit scan` side by side with its peers, in one run: recall and false
findings on the labelled corpus (tests/data/scan), finding counts on real
64-bit-clean code from Debian source packages (zlib, lua5.4, curl), and wall
time against `clang -fsyntax-only` and cppcheck over the same compile commands.

Peers, each given the fixture's target (aarch64-linux-gnu, or x86_64-w64-mingw32
for the LLP64 fixtures) and, on real code, each file's own -D/-I flags:

    aarch64-linux-gnu-gcc -fsyntax-only -Wconversion [-Wformat]
    clang --target=aarch64-linux-gnu -fsyntax-only -Wshorten-64-to-32 [-Wconversion]
    clang-tidy -checks=CHECKS (below)
    cppcheck --enable=portability --platform=unix64
    splint +posixlib (C only: it cannot parse C++)

A diagnostic "finds" a labelled line when it, or one of its notes (GCC puts a
warning inside a macro at the #define and adds "in expansion of macro" at the
use; clang the other way round), points at that line of the fixture. A
diagnostic none of whose locations is a labelled line is a false finding; its
first line is counted once per tool.

Every portkit finding on the real code is listed with its verdict from
bench/scan/verdicts.json: a person's judgement after reading the code, keyed
by file, line and rule, with the line's text; a finding without one, or whose
line has changed since, is shown as unreviewed.

Sources and builds live in a cache outside the repository (--cache, default
$PORTKIT_BENCH_CACHE, else $XDG_CACHE_HOME/portkit-bench, else
/var/tmp/portkit-bench). Fetching needs a deb-src entry in apt's sources: when
there is none and this runs as root, one is added next to the deb entries.

    python bench/scan/run.py [--rounds 5] [--write docs/benchmarks.md] [--only corpus|real]
    python bench/scan/run.py --only time [--project zlib ...] --rounds 3 --write docs/benchmarks.md

`--only time` times portkit and clang (no counting, no cppcheck: the full run
times that) and writes only the wall-time table, between its own markers
inside the scan section, so the speed goal can be checked in minutes.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
import scan_corpus as corpus  # noqa: E402  (the corpus's own reader: labels, scan-args, cflags)
from benchlib import machine, write_section  # noqa: E402

BEGIN, END = "<!-- scan-bench:begin -->", "<!-- scan-bench:end -->"
TIME_BEGIN, TIME_END = "<!-- scan-time:begin -->", "<!-- scan-time:end -->"  # inside BEGIN..END
EMPTY_C = "int main(void) { return 0; }\n"  # the start-up of each tool: one file with nothing to check
DASH = "\u2013"  # an empty cell
VERDICTS = Path(__file__).resolve().parent / "verdicts.json"
JOBS = os.cpu_count() or 1
TIMED_JOBS = 2  # the -j of the timed runs, the same for every tool

# The Debian package that brings each program, for the "not found" lines.
PACKAGES = {
    "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu",
    "aarch64-linux-gnu-g++": "g++-aarch64-linux-gnu",
    "x86_64-w64-mingw32-gcc": "gcc-mingw-w64-x86-64",
    "x86_64-w64-mingw32-g++": "g++-mingw-w64-x86-64",
    "clang": "clang",
    "clang-tidy": "clang-tidy",
    "cppcheck": "cppcheck",
    "splint": "splint",
    "bear": "bear",
    "cmake": "cmake",
    "make": "make",
    "gcc": "gcc",
    "libtool": "libtool-bin",
    "tclsh": "tcl",
    "autoreconf": "autoconf automake",
    "apt-get": "apt",
    "dpkg-source": "dpkg-dev",
}

# The target each data model is checked for by the peers (portkit takes --to itself).
TRIPLES = {"LP64": "aarch64-linux-gnu", "LLP64": "x86_64-w64-mingw32"}
CPPCHECK_PLATFORMS = {"LP64": "unix64", "LLP64": "win64"}

# What an engineer porting to 64 bits would pick: every bugprone check (narrowing
# conversions, implicit widening of a multiplication, misplaced widening casts,
# too-small loop variables, sizeof misuse...) except the two that only judge
# naming and parameter order, the C++ Core Guidelines' narrowing check (the
# same check as bugprone's, under its better known name) and portability-*.
# "-*" first also turns off clang's own warnings, so this row is the checks alone.
TIDY_CHECKS = (
    "-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-reserved-identifier,"
    "cppcoreguidelines-narrowing-conversions,portability-*"
)
CPPCHECK_TEMPLATE = "{file}:{line}:{column}: {severity}: {message} [{id}]"
# cppcheck's messages about itself, not about the code
CPPCHECK_NOT_FINDINGS = {
    "missingInclude",
    "missingIncludeSystem",
    "checkersReport",
    "toomanyconfigs",
    "unmatchedSuppression",
    "noValidConfiguration",
    "normalCheckLevelMaxBranches",
}
CPPCHECK_FAILURES = {"syntaxError", "internalAstError", "preprocessorErrorDirective", "unknownMacro", "cppcheckError"}


def cache_dir() -> Path:
    if os.environ.get("PORTKIT_BENCH_CACHE"):
        return Path(os.environ["PORTKIT_BENCH_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "portkit-bench"
    return Path("/var/tmp/portkit-bench")


def say(message: str) -> None:
    print(f"scan-bench: {message}", file=sys.stderr, flush=True)


def missing(programs: Iterable[str]) -> list[str]:
    """'clang-tidy (apt-get install -y clang-tidy)' for each program not on PATH."""
    return [f"{p} (apt-get install -y {PACKAGES.get(p, p)})" for p in programs if shutil.which(p) is None]


def run(cmd: Sequence[str], cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout, check=False
    )


# ------------------------------------------------------------------ diagnostics


@dataclass(frozen=True)
class Diag:
    path: Path
    line: int
    column: int
    message: str
    flag: str  # -Wconversion, the clang-tidy check, cppcheck's id; '' for splint
    related: tuple[tuple[Path, int], ...] = ()  # the notes' locations (macro expansions)

    def lines_in(self, path: Path) -> set[int]:
        """Every line of `path` this diagnostic points at, itself or through a note."""
        found = {self.line} if self.path == path else set()
        return found | {line for p, line in self.related if p == path}


@dataclass
class Outcome:
    diags: list[Diag] = field(default_factory=list)
    failed: str = ""  # why the tool could not check (all of) the file, or ''


_GNU = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<kind>warning|error|fatal error|note): (?P<msg>.*)$"
)
_FLAG = re.compile(r"\s\[([^\]\s]+)\]$")


def _where(cwd: Path, path: str) -> Path:
    return Path(os.path.normpath(cwd / path))


def parse_gnu(text: str, cwd: Path) -> Outcome:
    """GCC, clang and clang-tidy: warnings, each with the locations of the notes that follow it."""
    out = Outcome()
    current: dict | None = None

    def close() -> None:
        if current is not None:
            out.diags.append(Diag(**current))

    for line in text.splitlines():
        m = _GNU.match(line)
        if not m:
            continue
        kind, msg = m.group("kind"), m.group("msg")
        where = _where(cwd, m.group("path"))
        if kind == "note":
            if current is not None:
                current["related"] = (*current["related"], (where, int(m.group("line"))))
            continue
        close()
        current = None
        if kind == "warning":
            flag = _FLAG.search(msg)
            current = {
                "path": where,
                "line": int(m.group("line")),
                "column": int(m.group("col") or 0),
                "message": _FLAG.sub("", msg),
                "flag": flag.group(1) if flag else "",
                "related": (),
            }
        elif not out.failed:
            out.failed = f"{where.name}:{m.group('line')}: {msg}"
    close()
    return out


_CPPCHECK = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>\w+): (?P<msg>.*) \[(?P<id>\w+)\]$")


def parse_cppcheck(text: str, cwd: Path) -> Outcome:
    out = Outcome()
    for line in text.splitlines():
        m = _CPPCHECK.match(line)
        if not m or m.group("sev") == "information" or m.group("id") in CPPCHECK_NOT_FINDINGS:
            continue
        if m.group("id") in CPPCHECK_FAILURES:
            out.failed = out.failed or f"{Path(m.group('path')).name}:{m.group('line')}: {m.group('msg')}"
            continue
        out.diags.append(
            Diag(_where(cwd, m.group("path")), int(m.group("line")), int(m.group("col")), m.group("msg"), m.group("id"))
        )
    return out


_SPLINT = re.compile(r"^(?P<path>[^:\s][^:\n]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<msg>.*)$")


def parse_splint(text: str, cwd: Path) -> Outcome:
    """splint: 'file:line:col: message' then indented explanation lines. A message
    explained as "Preprocessing error", or a parse error, ends its check of the file:
    it is the reason, not a finding (what came before stands)."""
    out = Outcome()
    last: tuple[str, str] | None = None  # the latest message: where, what
    for line in text.splitlines():
        m = _SPLINT.match(line)
        if m is None:
            if line.strip().startswith("Preprocessing error.") and last is not None and out.diags:
                out.diags.pop()
                out.failed = out.failed or f"{last[0]}: {last[1]}"
            elif "Cannot continue" in line:
                out.failed = out.failed or "preprocessing error"
            continue
        where, msg = f"{Path(m.group('path')).name}:{m.group('line')}", m.group("msg").strip()
        last = (where, msg)
        if msg.startswith(("Parse Error", "Preprocessing error", "Cannot")):
            out.failed = out.failed or f"{where}: {re.split(r'[.:]', msg)[0]}"
            last = None
            continue
        out.diags.append(Diag(_where(cwd, m.group("path")), int(m.group("line")), int(m.group("col") or 0), msg, ""))
    return out


# ------------------------------------------------------------------ the peers


@dataclass(frozen=True)
class Source:
    """One file to check, as a peer is given it."""

    path: Path
    cwd: Path
    flags: tuple[str, ...] = ()  # -D/-U/-I/-include/-std/-O from its compile command, or the fixture's cflags
    model: str = "LP64"  # the target data model: LP64 (aarch64) or LLP64 (MinGW)
    cxx: bool = False


def _cc(s: Source) -> str:
    return f"{TRIPLES[s.model]}-{'g++' if s.cxx else 'gcc'}"


def _preprocessor_only(flags: Iterable[str]) -> list[str]:
    """The -D/-U/-I flags (splint and cppcheck take nothing else)."""
    return [f for f in flags if f.startswith(("-D", "-U", "-I"))]


@dataclass(frozen=True)
class Peer:
    key: str
    title: str  # the row's name in the tables
    programs: tuple[str, ...]
    argv: Callable[[Source], list[str] | None]  # None: this peer cannot take the file
    parse: Callable[[str, Path], Outcome]
    version: tuple[str, ...]  # the command that prints its version
    note: str = ""


PEERS: tuple[Peer, ...] = (
    Peer(
        "gcc",
        "gcc -Wconversion",
        ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++", "x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-g++"),
        lambda s: [_cc(s), "-fsyntax-only", "-Wconversion", *s.flags, str(s.path)],
        parse_gnu,
        ("aarch64-linux-gnu-gcc", "--version"),
    ),
    Peer(
        "gcc-format",
        "gcc -Wconversion -Wformat",
        ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++", "x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-g++"),
        lambda s: [_cc(s), "-fsyntax-only", "-Wconversion", "-Wformat", *s.flags, str(s.path)],
        parse_gnu,
        ("aarch64-linux-gnu-gcc", "--version"),
    ),
    Peer(
        "clang",
        "clang -Wshorten-64-to-32",
        ("clang",),
        lambda s: [
            "clang++" if s.cxx else "clang",
            f"--target={TRIPLES[s.model]}",
            "-fsyntax-only",
            "-Wshorten-64-to-32",
            *s.flags,
            str(s.path),
        ],
        parse_gnu,
        ("clang", "--version"),
    ),
    Peer(
        "clang-conversion",
        "clang -Wshorten-64-to-32 -Wconversion",
        ("clang",),
        lambda s: [
            "clang++" if s.cxx else "clang",
            f"--target={TRIPLES[s.model]}",
            "-fsyntax-only",
            "-Wshorten-64-to-32",
            "-Wconversion",
            *s.flags,
            str(s.path),
        ],
        parse_gnu,
        ("clang", "--version"),
    ),
    Peer(
        "clang-tidy",
        "clang-tidy (bugprone-\\*, narrowing, portability-\\*)",
        ("clang-tidy",),
        lambda s: [
            "clang-tidy",
            "--quiet",
            f"-checks={TIDY_CHECKS}",
            str(s.path),
            "--",
            f"--target={TRIPLES[s.model]}",
            *s.flags,
        ],
        parse_gnu,
        ("clang-tidy", "--version"),
    ),
    Peer(
        "cppcheck",
        "cppcheck --enable=portability",
        ("cppcheck",),
        lambda s: [
            "cppcheck",
            "--enable=portability",
            f"--platform={CPPCHECK_PLATFORMS[s.model]}",
            "--quiet",
            f"--template={CPPCHECK_TEMPLATE}",
            *_preprocessor_only(s.flags),
            str(s.path),
        ],
        parse_cppcheck,
        ("cppcheck", "--version"),
    ),
    Peer(
        "splint",
        "splint +posixlib",
        ("splint",),
        lambda s: None if s.cxx else ["splint", "+posixlib", *_preprocessor_only(s.flags), str(s.path)],
        parse_splint,
        ("splint", "-help"),
        note="C only",
    ),
)


def check(peer: Peer, source: Source) -> Outcome | None:
    """The peer's diagnostics on one file; None when it cannot take the file."""
    cmd = peer.argv(source)
    if cmd is None:
        return None
    proc = run(cmd, cwd=source.cwd)
    return peer.parse(proc.stdout + "\n" + proc.stderr, source.cwd)


def versions(peers: Iterable[Peer], portkit: list[str]) -> list[str]:
    """The first line with a version number of each tool's --version."""
    out = [run([*portkit, "--version"]).stdout.strip()]
    for cmd in dict.fromkeys(peer.version for peer in peers):
        proc = run(cmd)
        text = proc.stdout + proc.stderr
        first = next((line.strip() for line in text.splitlines() if re.search(r"\d+\.\d+", line)), "?")
        out.append(first if cmd[0].lower() in first.lower() else f"{cmd[0]}: {first}")
    return out


# ------------------------------------------------------------------ portkit


def portkit_command(explicit: str | None) -> list[str]:
    if explicit:
        return shlex.split(explicit)
    if importlib.util.find_spec("portkit") is not None:
        return [sys.executable, "-m", "portkit"]
    for candidate in (shutil.which("portkit"), ROOT / ".venv/bin/portkit"):
        if candidate and Path(candidate).exists():
            return [str(candidate)]
    sys.exit("scan-bench: portkit not found: run with the project's venv python, or give --portkit CMD")


def portkit_scan(portkit: list[str], args: Sequence[str], cwd: Path) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [*portkit, "scan", "--format", "json", "--fail-on", "never", "-o", out.name, *args]
        proc = run(cmd, cwd=cwd, timeout=3600)
        if proc.returncode not in (0, 2, 3) or "Traceback" in proc.stderr:  # 3: a file not read to its end
            sys.exit(f"scan-bench: {shlex.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        document = json.loads(Path(out.name).read_text())
    document["stderr"] = proc.stderr
    return document


# ------------------------------------------------------------------ the corpus


@dataclass
class Score:
    """One tool over the labelled corpus."""

    labelled: int = 0  # labelled lines
    found: int = 0  # labelled lines with a diagnostic of this tool
    pairs: int = 0  # labelled (line, rule) pairs (portkit: rule-exact)
    pairs_found: int = 0
    false_lines: int = 0  # lines with a diagnostic that is no labelled line's
    false_ok: int = 0  # of which in the correct files (ok_*, ivi-report/correct.c)
    not_run: int = 0  # fixtures the tool cannot take (splint: C++)
    failed: list[str] = field(default_factory=list)  # fixtures it stopped on
    families: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    rule_families: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))


def correct_file(fx: corpus.Fixture) -> bool:
    return fx.path.name.startswith("ok_") or fx.name == "ivi-report/correct.c"


def score_fixture(score: Score, fx: corpus.Fixture, hits: dict[int, set[str]] | None, false: set[int]) -> None:
    """hits: labelled line -> rules reported there (any diagnostic: {'*'}); None when not run."""
    for line, rules in fx.want.items():
        got = (hits or {}).get(line, set())
        score.labelled += 1
        score.found += bool(got)
        for fam in {r[2] for r in rules}:
            score.families[fam][1] += 1
            score.families[fam][0] += bool(got)
        for rule in rules:
            score.pairs += 1
            score.pairs_found += rule in got
            score.rule_families[rule[2]][1] += 1
            score.rule_families[rule[2]][0] += rule in got
    score.false_lines += len(false)
    if correct_file(fx):
        score.false_ok += len(false)


def corpus_peer_scores(peers: Sequence[Peer], fixtures: Sequence[corpus.Fixture]) -> dict[str, Score]:
    jobs = [(peer, fx) for peer in peers for fx in fixtures]

    def one(job: tuple[Peer, corpus.Fixture]) -> Outcome | None:
        peer, fx = job
        source = Source(fx.path.resolve(), fx.path.parent, fx.cflags, fx.models[1], fx.cxx)
        return check(peer, source)

    scores = {peer.key: Score() for peer in peers}
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for (peer, fx), outcome in zip(jobs, pool.map(one, jobs), strict=True):
            score = scores[peer.key]
            if outcome is None:
                score.not_run += 1
                score_fixture(score, fx, None, set())
                continue
            if outcome.failed:
                score.failed.append(f"{fx.name} ({outcome.failed})")
            path = fx.path.resolve()
            hits: dict[int, set[str]] = defaultdict(set)
            false: set[int] = set()
            for d in outcome.diags:
                lines = d.lines_in(path)
                on_label = lines & set(fx.want)
                for line in on_label:
                    hits[line].add("*")
                if lines and not on_label:
                    false.add(d.line if d.path == path else min(lines))
            score_fixture(score, fx, hits, false)
    return scores


def corpus_portkit_score(portkit: list[str], fixtures: Sequence[corpus.Fixture]) -> Score:
    groups: dict[tuple[str, ...], list[corpus.Fixture]] = defaultdict(list)
    for fx in fixtures:
        groups[fx.scan_args].append(fx)
    found: dict[Path, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    score = Score()
    for args, group in groups.items():
        document = portkit_scan(portkit, [*args, *(str(fx.path.resolve()) for fx in group)], ROOT)
        score.failed += document["problems"]
        for f in document["findings"]:
            found[(ROOT / f["location"]["path"]).resolve()][f["location"]["line"]].add(f["rule"])
    for fx in fixtures:
        reported = found.get(fx.path.resolve(), {})
        score_fixture(
            score,
            fx,
            {line: rules for line, rules in reported.items() if line in fx.want},
            set(reported) - set(fx.want),
        )
    return score


# ------------------------------------------------------------------ real code: fetching and building


def _stanzas(path: Path) -> list[dict[str, str]]:
    """The fields of each stanza of a deb822 .sources file (comments left out)."""
    out = []
    for block in re.split(r"\n\s*\n", path.read_text(errors="replace")):
        pairs = [line.split(":", 1) for line in block.splitlines() if ":" in line and line[:1] not in ("#", " ", "\t")]
        out.append({k.strip(): v.strip() for k, v in pairs})
    return out


def _one_line_sources(apt_dir: Path) -> list[list[str]]:
    """The entries of sources.list and *.list, as words, comments left out."""
    files = [apt_dir / "sources.list", *sorted((apt_dir / "sources.list.d").glob("*.list"))]
    return [
        line.split("#", 1)[0].split()
        for f in files
        if f.is_file()
        for line in f.read_text(errors="replace").splitlines()
        if line.split("#", 1)[0].strip()
    ]


def _deb822(apt_dir: Path) -> list[dict[str, str]]:
    return [
        s
        for f in sorted((apt_dir / "sources.list.d").glob("*.sources"))
        for s in _stanzas(f)
        if s.get("Enabled", "yes").lower() != "no"
    ]


def deb_src_configured(apt_dir: Path) -> bool:
    return any(words[:1] == ["deb-src"] for words in _one_line_sources(apt_dir)) or any(
        "deb-src" in s.get("Types", "").split() for s in _deb822(apt_dir)
    )


def deb_src_entries(apt_dir: Path) -> str:
    """A deb822 file with one deb-src stanza for each deb entry (deb822 or one-line)."""
    stanzas: list[str] = []
    for fields in _deb822(apt_dir):
        if "deb" in fields.get("Types", "").split():
            keep = [f"{k}: {fields[k]}" for k in ("URIs", "Suites", "Components", "Signed-By") if k in fields]
            stanzas.append("\n".join(["Types: deb-src", *keep]))
    for words in _one_line_sources(apt_dir):
        options = [w for w in words[1:] if w.startswith("[") or w.endswith("]") or "=" in w]
        rest = [w for w in words[1:] if w not in options]
        if words[:1] == ["deb"] and len(rest) >= 2:
            signed = next((o.strip("[]").split("=", 1)[1] for o in options if "signed-by=" in o), None)
            stanza = ["Types: deb-src", f"URIs: {rest[0]}", f"Suites: {rest[1]}"]
            stanza += [f"Components: {' '.join(rest[2:])}"] if rest[2:] else []
            stanza += [f"Signed-By: {signed}"] if signed else []
            stanzas.append("\n".join(stanza))
    return "\n\n".join(stanzas) + "\n"


def ensure_deb_src(apt_dir: Path = Path("/etc/apt")) -> str:
    """'' when apt can fetch sources (adding a deb-src entry if needed), else why not."""
    if deb_src_configured(apt_dir):
        return ""
    if os.geteuid() != 0:
        return "no deb-src entry in apt's sources, and adding one needs root"
    entries = deb_src_entries(apt_dir)
    if "Types: deb-src" not in entries:
        return "no deb-src entry in apt's sources, and no deb entry to derive one from"
    target = apt_dir / "sources.list.d" / "portkit-bench-src.sources"
    target.write_text("# added by bench/scan/run.py for apt-get source\n" + entries)
    say(f"added {target}; apt-get update")
    proc = run(["apt-get", "update"], timeout=1800)
    return "" if proc.returncode == 0 else f"apt-get update failed: {proc.stderr.strip()[-300:]}"


def fetch(package: str, into: Path) -> Path:
    """`apt-get source PACKAGE` into the cache (once); the unpacked tree."""
    into.mkdir(parents=True, exist_ok=True)

    def tree() -> Path | None:
        dirs = [d for d in into.glob(f"{package}-*") if d.is_dir() and (d / "debian").is_dir()]
        return max(dirs, default=None)

    if (found := tree()) is not None:
        return found
    for attempt in range(2):
        proc = run(["apt-get", "source", package], cwd=into, timeout=1800)
        if proc.returncode == 0 and (found := tree()) is not None:
            return found
        if attempt == 0:  # a fresh deb-src entry needs its index
            run(["apt-get", "update"], timeout=1800)
    raise RuntimeError(f"apt-get source {package} failed: {proc.stderr.strip()[-400:]}")


def bear(out: Path, cwd: Path, *cmd: str) -> None:
    proc = run(["bear", "--output", str(out), "--", *cmd], cwd=cwd, timeout=3600)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"bear -- {shlex.join(cmd)} failed: {proc.stderr.strip()[-400:]}")


def build_zlib(src: Path, build: Path) -> Path:
    """Its own configure and Makefile (in the tree, as zlib builds), under bear."""
    db = build / "compile_commands.json"
    if run(["./configure"], cwd=src).returncode != 0:
        raise RuntimeError("zlib ./configure failed")
    bear(db, src, "make", f"-j{JOBS}")
    return db


def build_lua(src: Path, build: Path) -> Path:
    """Debian's Makefile (libtool), without readline: its header is not in the
    cross sysroots the peers and portkit use for aarch64."""
    db = build / "compile_commands.json"
    header = src / "src" / "lua5.4-deb-multiarch.h"  # debian/rules writes it at configure time
    guard = "_LUA_DEB_MULTIARCH_"
    header.write_text(f'#ifndef {guard}\n#define {guard}\n#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n#endif\n')
    bear(
        db,
        src,
        "make",
        f"-j{JOBS}",
        "-C",
        "src",
        "linux-noreadline",
        "V=5.4",
        "LIBTOOL=libtool --quiet",
        "CC=gcc -std=gnu99",
    )
    return db


CURL_CMAKE = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
    "-DPICKY_COMPILER=OFF",  # the warning flags are each peer's own
    "-DBUILD_TESTING=OFF",
    "-DENABLE_MANUAL=OFF",
    # only libc: the cross sysroots hold no OpenSSL, zlib, ... headers for aarch64
    "-DCURL_ENABLE_SSL=OFF",
    "-DCURL_ZLIB=OFF",
    "-DCURL_BROTLI=OFF",
    "-DCURL_ZSTD=OFF",
    "-DUSE_LIBIDN2=OFF",
    "-DCURL_USE_LIBSSH2=OFF",
    "-DCURL_USE_GSSAPI=OFF",
    "-DCURL_DISABLE_LDAP=ON",
)


def build_curl(src: Path, build: Path) -> Path:
    """Its CMake build (CMAKE_EXPORT_COMPILE_COMMANDS), built once to prove it builds."""
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    for cmd in (["cmake", *generator, str(src), *CURL_CMAKE], ["cmake", "--build", ".", "-j", str(JOBS)]):
        proc = run(cmd, cwd=build, timeout=3600)
        if proc.returncode != 0:
            raise RuntimeError(f"{shlex.join(cmd)} failed: {proc.stdout.strip()[-400:]}")
    return build / "compile_commands.json"


def configure_and_make(
    configure: Path, build: Path, *options: str, targets: Sequence[str] = (), reconfigure: bool = True
) -> Path:
    """An autoconf project built out of its tree: `autoreconf -fi` as Debian's
    build does (the tarballs' generated files are missing or made by another
    Automake), `configure OPTIONS` in build/, then `bear -- make TARGETS`."""
    proc = run(["autoreconf", "-fi"] if reconfigure else ["true"], cwd=configure.parent, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"autoreconf -fi failed: {(proc.stdout + proc.stderr).strip()[-400:]}")
    proc = run([str(configure), *options], cwd=build, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"{configure.name} failed: {(proc.stdout + proc.stderr).strip()[-400:]}")
    db = build / "compile_commands.json"
    bear(db, build, "make", f"-j{JOBS}", *targets)
    return db


def build_bzip2(src: Path, build: Path) -> Path:
    """Its own Makefile, in the tree (as bzip2 builds): the library and both programs, not the self-test."""
    run(["make", "clean"], cwd=src)
    db = build / "compile_commands.json"
    bear(db, src, "make", f"-j{JOBS}", "libbz2.a", "bzip2", "bzip2recover")
    return db


def build_expat(src: Path, build: Path) -> Path:
    return configure_and_make(src / "expat" / "configure", build, "--without-docbook")


def build_libyaml(src: Path, build: Path) -> Path:
    return configure_and_make(src / "configure", build)


def build_jq(src: Path, build: Path) -> Path:
    """The system's oniguruma, as Debian builds it: its header is the build
    machine's (/usr/include), not in the aarch64 cross sysroot."""
    return configure_and_make(
        src / "configure", build, "--disable-docs", "--disable-maintainer-mode", "--with-oniguruma=yes"
    )


def build_libxml2(src: Path, build: Path) -> Path:
    return configure_and_make(src / "configure", build, "--without-python")


def build_sqlite3(src: Path, build: Path) -> Path:
    """The amalgamation (sqlite3.c, made by the build) and the shell, with the build's own code generators."""
    # its configure is kept in the tarball (and made by autoconf 2.69, which its configure.ac wants)
    return configure_and_make(src / "configure", build, "--disable-tcl", targets=("sqlite3",), reconfigure=False)


@dataclass(frozen=True)
class Project:
    name: str
    package: str  # Debian source package
    build: Callable[[Path, Path], Path]
    needs: tuple[str, ...]
    how: str  # how its compile commands were made, for the docs
    # peers left out on this project, and why (cppcheck spends over 5 minutes on sqlite3's 9 MB amalgamation)
    left_out: tuple[tuple[str, str], ...] = ()


PROJECTS = (
    Project("zlib", "zlib", build_zlib, ("bear", "make", "gcc"), "`./configure && bear -- make`"),
    Project(
        "lua5.4",
        "lua5.4",
        build_lua,
        ("bear", "make", "gcc", "libtool"),
        "`bear -- make -C src linux-noreadline` (Debian's libtool Makefile; C objects only)",
    ),
    Project(
        "curl",
        "curl",
        build_curl,
        ("cmake", "gcc"),
        "CMake `-DCMAKE_EXPORT_COMPILE_COMMANDS=ON`, libc only (no TLS, zlib, IDN, SSH, LDAP)",
    ),
    Project("bzip2", "bzip2", build_bzip2, ("bear", "make", "gcc"), "`bear -- make libbz2.a bzip2 bzip2recover`"),
    Project("expat", "expat", build_expat, ("bear", "make", "gcc", "autoreconf"), "`expat/configure && bear -- make`"),
    Project(
        "libyaml", "libyaml", build_libyaml, ("bear", "make", "gcc", "autoreconf"), "`./configure && bear -- make`"
    ),
    Project(
        "jq",
        "jq",
        build_jq,
        ("bear", "make", "gcc", "autoreconf"),
        "`./configure --with-oniguruma=yes && bear -- make` (the system's oniguruma, from /usr/include)",
    ),
    Project(
        "libxml2",
        "libxml2",
        build_libxml2,
        ("bear", "make", "gcc", "autoreconf"),
        "`./configure --without-python && bear -- make`",
        (("cppcheck", "more than 4 minutes for a single file of it (10 minutes a run was in sight)"),),
    ),
    Project(
        "sqlite3",
        "sqlite3",
        build_sqlite3,
        ("bear", "make", "gcc", "tclsh"),
        "`./configure --disable-tcl && bear -- make sqlite3` (the amalgamation, the shell and the build's generators)",
        (("cppcheck", "more than 5 minutes for sqlite3.c alone"),),
    ),
)


@dataclass
class Prepared:
    project: Project
    src: Path
    build: Path
    db_dir: Path
    sources: list[Source]
    version: str
    c_lines: int

    def roots(self) -> tuple[Path, Path]:
        return self.src.resolve(), self.build.resolve()

    def owns(self, path: Path) -> bool:
        return any(path.is_relative_to(r) for r in self.roots())

    def display(self, path: Path) -> str:
        src, build = self.roots()
        if path.is_relative_to(src):
            return path.relative_to(src).as_posix()
        return f"(build)/{path.relative_to(build).as_posix()}" if path.is_relative_to(build) else str(path)


_KEEP_WITH_VALUE = ("-D", "-U", "-I", "-include", "-imacros", "-isystem", "-iquote")


def peer_flags(arguments: Sequence[str]) -> tuple[str, ...]:
    """The flags of a compile command that change what the code means: -D/-U/-I and the
    like, -std=, -O (glibc's headers look at __OPTIMIZE__) and the signedness of char."""
    kept: list[str] = []
    args = list(arguments[1:])
    i = 0
    while i < len(args):
        a = args[i]
        if a in _KEEP_WITH_VALUE and i + 1 < len(args):
            kept += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith(("-D", "-U", "-I", "-std=", "-O")) or a in ("-funsigned-char", "-fsigned-char"):
            kept.append(a)
        i += 1
    return tuple(kept)


def prepare(project: Project, cache: Path) -> Prepared:
    """Sources, a build and a compile database of its C files, one entry per file."""
    src = fetch(project.package, cache / "src")
    build = cache / "build" / project.name
    build.mkdir(parents=True, exist_ok=True)
    raw = build / "compile_commands.json"
    if not raw.exists():
        say(f"{project.name}: building {src.name}")
        raw = project.build(src, build)
    entries: dict[Path, dict] = {}
    for e in json.loads(raw.read_text()):
        arguments = e.get("arguments") or shlex.split(e["command"])
        path = Path(e["directory"], e["file"]).resolve()
        if arguments[0].endswith(("++", "c++")) or path.suffix != ".c" or not path.exists():
            continue
        entries.setdefault(path, {"directory": e["directory"], "file": str(path), "arguments": arguments})
    db_dir = cache / "db" / project.name
    db_dir.mkdir(parents=True, exist_ok=True)
    (db_dir / "compile_commands.json").write_text(json.dumps(list(entries.values()), indent=1))
    sources = [Source(p, Path(e["directory"]), peer_flags(e["arguments"])) for p, e in entries.items()]
    c_lines = sum(len(p.read_bytes().splitlines()) for p in entries)
    version = src.name.removeprefix(f"{project.package}-")
    return Prepared(project, src, build, db_dir, sources, version, c_lines)


# ------------------------------------------------------------------ real code: counting


@dataclass
class Count:
    diags: list[Diag] = field(default_factory=list)  # distinct, in the project's own files
    failed: int = 0  # files the tool could not check (wholly)
    why: str = ""  # the most frequent reason


def distinct(diags: Iterable[Diag]) -> list[Diag]:
    """One per (file, line, column, flag, message): a header's diagnostic comes once, not once per file."""
    seen: dict[tuple, Diag] = {}
    for d in diags:
        seen.setdefault((d.path, d.line, d.column, d.flag, d.message), d)
    return sorted(seen.values(), key=lambda d: (str(d.path), d.line, d.column))


def count_peer(peer: Peer, prepared: Prepared) -> Count:
    """Every file on its own with its flags (cppcheck too, so that a file it stops on is
    known: in --project mode it reports one #error for all the files that hit it)."""
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        outcomes = list(pool.map(lambda s: check(peer, s), prepared.sources))
    diags = [d for o in outcomes if o is not None for d in o.diags if prepared.owns(d.path)]
    reasons = Counter(o.failed.rstrip(" \\") for o in outcomes if o is not None and o.failed)
    return Count(distinct(diags), sum(reasons.values()), reasons.most_common(1)[0][0] if reasons else "")


@dataclass
class PortkitRun:
    findings: list[dict]
    problems: list[str]
    scanned: int
    inputs: int


def count_portkit(portkit: list[str], prepared: Prepared, cache: Path) -> PortkitRun:
    document = portkit_scan(portkit, ["-p", str(prepared.db_dir), "-j", str(JOBS), "--no-cache"], cache)
    for f in document["findings"]:
        f["abspath"] = Path(os.path.normpath(cache / f["location"]["path"]))
    return PortkitRun(document["findings"], document["problems"], document["scanned"], document["inputs"])


# ------------------------------------------------------------------ real code: timing


def clang_syntax(prepared: Prepared, jobs: int) -> None:
    """`clang --target=aarch64-linux-gnu -fsyntax-only` over every file, `jobs` at a time (as xargs -P)."""

    def one(s: Source) -> int:
        cmd = ["clang", "--target=aarch64-linux-gnu", "-fsyntax-only", *s.flags, str(s.path)]
        return subprocess.run(cmd, cwd=s.cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, prepared.sources))


def timings(
    portkit: list[str], prepared: Prepared, cache: Path, rounds: int, with_cppcheck: bool = True
) -> dict[str, list[float]]:
    """Alternating rounds (the order rotates each round), after one untimed
    warm-up of each; besides the project, each tool on one empty file (its
    start-up: what a project pays before its first file)."""
    db = prepared.db_dir / "compile_commands.json"
    out = cache / "timing-portkit.json"
    empty = cache / "timing-empty.c"
    empty.write_text(EMPTY_C)

    def portkit_run(*inputs: str) -> Callable[[], None]:
        cmd = [*portkit, "scan", *inputs, "-j", str(TIMED_JOBS), "--format", "json", "--no-cache"]
        cmd += ["--fail-on", "never", "-o", str(out)]

        def scan() -> None:
            subprocess.run(cmd, cwd=cache, capture_output=True, check=False)

        return scan

    def cppcheck_run() -> None:
        cmd = ["cppcheck", "--enable=portability", "--platform=unix64", f"--project={db}", f"-j{TIMED_JOBS}"]
        subprocess.run([*cmd, "--quiet"], cwd=cache, capture_output=True, check=False)

    def clang_empty() -> None:
        cmd = ["clang", "--target=aarch64-linux-gnu", "-fsyntax-only", str(empty)]
        subprocess.run(cmd, cwd=cache, capture_output=True, check=False)

    contenders: dict[str, Callable[[], None]] = {
        "portkit": portkit_run("-p", str(prepared.db_dir)),
        "clang": lambda: clang_syntax(prepared, TIMED_JOBS),
        "portkit-empty": portkit_run(str(empty)),
        "clang-empty": clang_empty,
    }
    if with_cppcheck and shutil.which("cppcheck") and "cppcheck" not in dict(prepared.project.left_out):
        contenders["cppcheck"] = cppcheck_run
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()
    names = list(contenders)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.perf_counter()
            contenders[name]()
            times[name].append(time.perf_counter() - start)
        say(
            f"{prepared.project.name}: round {r + 1}/{rounds}: "
            + ", ".join(f"{n} {t[-1]:.2f} s" for n, t in times.items())
        )
    return times


# ------------------------------------------------------------------ the report


def pct(hit: int, total: int) -> str:
    return f"{hit}/{total} ({100 * hit / total:.0f}%)" if total else DASH


def cell(text: str) -> str:
    return text.replace("|", "\\|")


FAMILY_NAMES = {
    "1": "pointers",
    "2": "formats",
    "3": "narrowing",
    "4": "magic numbers",
    "5": "layout",
    "6": "loops",
    "7": "calls",
    "8": "arch",
}


def corpus_section(
    fixtures: Sequence[corpus.Fixture], portkit: Score, peers: dict[str, Score], titles: dict[str, str]
) -> list[str]:
    correct = [fx for fx in fixtures if correct_file(fx)]
    cxx = [fx for fx in fixtures if fx.cxx]
    rows = [
        "| tool | labelled lines found (recall) | rule-exact | false-finding lines | of them in correct files "
        "| fixtures it stopped on |",
        "|---|---:|---:|---:|---:|---:|",
    ]

    def row(title: str, s: Score, exact: str) -> str:
        stopped = str(len(s.failed)) + (f" (+{s.not_run} C++ not run)" if s.not_run else "")
        return f"| {title} | {pct(s.found, s.labelled)} | {exact} | {s.false_lines} | {s.false_ok} | {stopped} |"

    rows.append(row("**portkit scan**", portkit, pct(portkit.pairs_found, portkit.pairs)))
    rows += [row(titles[k], s, DASH) for k, s in peers.items()]
    fam = [
        "| tool | " + " | ".join(f"{k} {v}" for k, v in FAMILY_NAMES.items()) + " |",
        "|---|" + "---:|" * len(FAMILY_NAMES),
    ]

    def fam_row(title: str, families: dict[str, list[int]]) -> str:
        return f"| {title} | " + " | ".join(pct(*families[k]) for k in FAMILY_NAMES) + " |"

    fam.append(fam_row("**portkit scan** (rule-exact)", portkit.rule_families))
    fam.append(fam_row("portkit scan (any rule)", portkit.families))
    fam += [fam_row(titles[k], s.families) for k, s in peers.items()]
    stopped = [f"- {titles[k]}: " + "; ".join(s.failed) for k, s in peers.items() if s.failed]
    return [
        f"**Corpus.** {len(fixtures)} fixtures ({len(cxx)} C++, {sum(1 for fx in fixtures if fx.models[1] == 'LLP64')} "
        f"LLP64 scanned for MinGW), {portkit.labelled} labelled lines carrying {portkit.pairs} (line, rule) labels; "
        f"{len(correct)} correct files (ok_\\*, ivi-report/correct.c) with no label.",
        "",
        *rows,
        "",
        "Recall per family (labelled lines; a line counts in the family of each rule it is labelled with):",
        "",
        *fam,
        "",
        *(
            ["Fixtures a peer stopped on (what it reported before stopping is counted):", "", *stopped, ""]
            if stopped
            else []
        ),
    ]


def top_flags(diags: Sequence[Diag], n: int = 4) -> str:
    counts = Counter(d.flag or "(splint)" for d in diags)
    return ", ".join(f"{flag} {c}" for flag, c in counts.most_common(n))


def load_verdicts() -> dict[tuple[str, str, int, str], dict]:
    if not VERDICTS.exists():
        return {}
    return {(v["project"], v["path"], v["line"], v["rule"]): v for v in json.loads(VERDICTS.read_text())}


def source_line(path: Path, line: int) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return "?"
    return lines[line - 1].strip() if 0 < line <= len(lines) else "?"


def counts_table(
    prepared: Sequence[Prepared],
    runs: dict[str, PortkitRun],
    counts: dict[str, dict[str, Count]],
    titles: dict[str, str],
) -> tuple[list[str], dict[str, int]]:
    """Findings per tool and project; the totals per tool ('portkit', peer keys)."""
    names = [p.project.name for p in prepared]
    rows = [
        "| tool | " + " | ".join(names) + " | total | most frequent |",
        "|---|" + "---:|" * (len(names) + 1) + "---|",
    ]
    rules = Counter(f["rule"] for n in names for f in runs[n].findings)
    totals = {"portkit": sum(len(runs[n].findings) for n in names)}
    rows.append(
        "| **portkit scan** | "
        + " | ".join(str(len(runs[n].findings)) for n in names)
        + f" | {totals['portkit']} | "
        + ", ".join(f"{r} {c}" for r, c in rules.most_common(4))
        + " |"
    )
    for key, title in titles.items():
        per = [counts[n].get(key) for n in names]
        cells = [
            "left out" if c is None else str(len(c.diags)) + (f" (stopped on {c.failed} files)" if c.failed else "")
            for c in per
        ]
        measured = [c for c in per if c is not None]
        totals[key] = sum(len(c.diags) for c in measured)
        flags = top_flags([d for c in measured for d in c.diags])
        rows.append(f"| {title} | " + " | ".join(cells) + f" | {totals[key]} | {flags} |")
    stopped = [
        f"- {titles[key]} on {n}: {c.failed} of {len(p.sources)} files, e.g. {cell(c.why)}"
        for key in titles
        for p in prepared
        for n in [p.project.name]
        if (c := counts[n].get(key)) is not None and c.failed
    ]
    left_out = [
        f"- {titles[key]} on {p.project.name}: left out of counts and timing, {why}"
        for p in prepared
        for key, why in p.project.left_out
        if key in titles
    ]
    return rows + (
        ["", "Where a peer stopped (what it reported before stopping is counted):", "", *stopped] if stopped else []
    ) + (["", *left_out] if left_out else []), totals


def spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}{DASH}{max(values):.2f})"


def timing_table(
    prepared: Sequence[Prepared], times: dict[str, dict[str, list[float]]], counts: dict[str, dict[str, Count]]
) -> tuple[list[str], dict[str, str]]:
    """Medians (min-max) per project and the two ratio goals; a tool that stopped on
    every file of a project has no ratio there (its time is that of a failure).
    portkit / clang is the median of each round's ratio: a round runs the two
    seconds apart, so the machine's speed drifting between rounds (by a quarter
    within minutes on a shared VM) moves both alike. The cppcheck columns only
    where it was timed (not by --only time)."""
    with_cppcheck = any("cppcheck" in t for t in times.values())
    heads = ["project", "files", f"portkit scan -j {TIMED_JOBS}", f"clang -fsyntax-only, {TIMED_JOBS} at a time"]
    heads += [f"cppcheck -j {TIMED_JOBS}"] if with_cppcheck else []
    heads += ["portkit / clang", *(["cppcheck / portkit"] if with_cppcheck else [])]
    heads += ["start-up: portkit, clang (one empty file)"]
    rows = ["| " + " | ".join(heads) + " |", "|---|" + "---:|" * (len(heads) - 1)]
    vs_clang: dict[str, float | None] = {}
    vs_cppcheck: dict[str, float | None] = {}
    for p in prepared:
        name, t = p.project.name, times[p.project.name]
        med = {k: statistics.median(v) for k, v in t.items()}
        vs_clang[name] = statistics.median(a / b for a, b in zip(t["portkit"], t["clang"], strict=True))
        cpp_cells = ""
        if with_cppcheck:
            cpp_cell = DASH
            if "cppcheck" in t:
                cpp_cell = spread(t["cppcheck"])
                c = counts.get(name, {}).get("cppcheck")
                stopped = c is not None and c.failed == len(p.sources)
                cpp_cell += " (stopped on every file)" if stopped else ""
                vs_cppcheck[name] = None if stopped else med["cppcheck"] / med["portkit"]
            cpp_cells = f"| {cpp_cell} "
        ratio_cells = f"| {vs_clang[name]:.2f} " + (f"| {ratio_cell(vs_cppcheck.get(name))} " if with_cppcheck else "")
        rows.append(
            f"| {name} | {len(p.sources)} | {spread(t['portkit'])} | {spread(t['clang'])} {cpp_cells}{ratio_cells}"
            f"| {med['portkit-empty']:.2f}, {med['clang-empty']:.2f} |"
        )

    def goal(ratios: dict[str, float | None], ok: Callable[[float], bool]) -> str:
        measured = [r for r in ratios.values() if r is not None]
        met = "met" if measured and all(map(ok, measured)) else "not met"
        shown = [
            f"{n} {r:.2f}x" if r is not None else f"{n} n/a (cppcheck stopped on every file)" for n, r in ratios.items()
        ]
        missed = [f"{n} {r:.2f}x" for n, r in ratios.items() if r is not None and not ok(r)]
        tally = f" (on {len(measured) - len(missed)} of {len(measured)}; not on {', '.join(missed)})" if missed else ""
        return f"{met}{tally}: " + ", ".join(shown)

    goals = {
        f"wall time at most 2x clang -fsyntax-only (same files, -j {TIMED_JOBS})": goal(vs_clang, lambda r: r <= 2)
    }
    if vs_cppcheck:
        goals[f"at least 5x faster than cppcheck (-j {TIMED_JOBS})"] = goal(vs_cppcheck, lambda r: r >= 5)
    return rows, goals


def timing_section(
    prepared: Sequence[Prepared],
    times: dict[str, dict[str, list[float]]],
    counts: dict[str, dict[str, Count]],
    rounds: int,
) -> tuple[list[str], dict[str, str]]:
    """The wall-time table between its own markers, with the machine it ran on
    (--only time refreshes just this), and the goals it decides."""
    timing, goals = timing_table(prepared, times, counts)
    speed = next(iter(goals.items()))
    return [
        TIME_BEGIN,
        f"**Wall time** ({machine()}), same compile commands, {TIMED_JOBS} files at a time for every tool; "
        f"seconds, median (min{DASH}max) of {rounds} alternating rounds (the order rotates), after one untimed "
        "warm-up run each; portkit / clang is the median of the rounds' own ratios (in a round the two run "
        "seconds apart, so a drift of the machine's speed between rounds moves both); the last column is each "
        "tool on one empty file, its start-up (medians):",
        "",
        *timing,
        "",
        f"Goal, {speed[0]}: {speed[1]}.",
        TIME_END,
    ], goals


def ratio_cell(ratio: float | None) -> str:
    return DASH if ratio is None else f"{ratio:.2f}"


def findings_listing(prepared: Sequence[Prepared], runs: dict[str, PortkitRun]) -> tuple[list[str], str]:
    """Every portkit finding with the source line and the verdict from verdicts.json; a tally."""
    verdicts = load_verdicts()
    rows = ["| project | where | rule | source line | verdict |", "|---|---|---|---|---|"]
    tally: Counter[str] = Counter()
    for p in prepared:
        for f in sorted(runs[p.project.name].findings, key=lambda f: (str(f["abspath"]), f["location"]["line"])):
            where, line = p.display(f["abspath"]), f["location"]["line"]
            text = source_line(f["abspath"], line)
            v = verdicts.get((p.project.name, where, line, f["rule"]))
            if v is None:
                verdict = "**unreviewed**"
            elif v["text"] != text:
                verdict = "**the line changed since its verdict: re-review**"
            else:
                verdict = v["verdict"]
            tally[verdict.split(":", 1)[0].strip("*")] += 1
            rows.append(
                f"| {p.project.name} | {where}:{line}:{f['location']['column']} | {f['rule']} "
                f"| `{cell(text[:110])}` | {cell(verdict)} |"
            )
    return rows, ", ".join(f"{k} {c}" for k, c in tally.most_common())


def real_section(
    prepared: Sequence[Prepared],
    runs: dict[str, PortkitRun],
    counts: dict[str, dict[str, Count]],
    titles: dict[str, str],
    times: dict[str, dict[str, list[float]]],
    rounds: int,
    skipped: Sequence[str],
) -> tuple[list[str], dict[str, str]]:
    projects = [
        "| project | Debian source | C files | lines of C in them | compile commands |",
        "|---|---|---:|---:|---|",
        *(
            f"| {p.project.name} | {p.project.package} {p.version} | {len(p.sources)} | {p.c_lines} | {p.project.how} |"
            for p in prepared
        ),
    ]
    table, totals = counts_table(prepared, runs, counts, titles)
    timing, goals = timing_section(prepared, times, counts, rounds)
    listing, tally = findings_listing(prepared, runs)
    if "gcc" in totals:
        unsigned = sum(1 for n in runs for d in counts[n]["gcc"].diags if d.flag == "-Wsign-conversion")
        goals = {
            "fewer findings than GCC -Wconversion on 64-bit-clean code": (
                f"{'met' if totals['portkit'] < totals['gcc'] else 'not met'}: {totals['portkit']} vs {totals['gcc']} "
                f"({totals['gcc'] - unsigned} without GCC's -Wsign-conversion part)"
            ),
            **goals,
        }
    problems = [f"{n}: {len(r.problems)} ({r.problems[0]})" for n, r in runs.items() if r.problems]
    lines = [
        "**Real code.** Debian bookworm source packages (`apt-get source`), each file checked with its own -D/-I "
        "flags from the project's compile commands; counts are distinct diagnostics (a header's warning once) in the "
        "project's own files.",
        "",
        *projects,
        "",
        *table,
        "",
        *(["portkit's problems: " + "; ".join(problems), ""] if problems else []),
        *(["Skipped: " + "; ".join(skipped), ""] if skipped else []),
        *timing,
        "",
        f"**Every portkit finding on this code**, with a verdict ({tally}):",
        "",
        *listing,
        "",
    ]
    return lines, goals


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per project (default 5)")
    parser.add_argument(
        "--write", type=Path, help="replace the scan section (with --only time: its wall-time table) of this file"
    )
    parser.add_argument(
        "--only",
        choices=("corpus", "real", "time"),
        help="one part only: the corpus, the real code, or the real code's wall time alone",
    )
    names = [p.name for p in PROJECTS]
    parser.add_argument(
        "--project", action="append", choices=names, metavar="NAME", help=f"this project only (repeatable): {names}"
    )
    parser.add_argument("--cache", type=Path, default=cache_dir(), help="sources and builds (default %(default)s)")
    parser.add_argument("--portkit", help="the portkit command (default: python -m portkit from this interpreter)")
    args = parser.parse_args()
    if args.write and args.only in ("corpus", "real"):
        parser.error("--write needs both parts (or --only time, for the wall-time table)")
    portkit = portkit_command(args.portkit)
    if args.only == "time":
        prepared, _ = prepare_projects(args.cache, args.project)
        times = {p.project.name: timings(portkit, p, args.cache, args.rounds, with_cppcheck=False) for p in prepared}
        lines, _ = timing_section(prepared, times, {}, args.rounds)
        section = "\n".join(lines) + "\n"
        print(section)
        if args.write:
            write_section(args.write, section, TIME_BEGIN, TIME_END, "## Scan: wall time against clang\n\n")
        return
    peers, left_out = [], []
    for peer in PEERS:
        if absent := missing(peer.programs):
            left_out.append(f"{peer.title} (not found: {', '.join(absent)})")
            say(f"{peer.key}: left out, not found: {', '.join(absent)}")
        else:
            peers.append(peer)
    titles = {p.key: p.title + (f" ({p.note})" if p.note else "") for p in peers}
    header = [
        BEGIN,
        f"Machine: {machine()}.",
        "",
        "Versions: " + "; ".join(versions(peers, portkit)) + ".",
        "",
        *(["Left out: " + "; ".join(left_out) + ".", ""] if left_out else []),
    ]
    body: list[str] = []
    goals: dict[str, str] = {}
    if args.only != "real":
        fixtures = corpus.fixtures()
        say(f"corpus: {len(fixtures)} fixtures, portkit and {len(peers)} peers")
        pk = corpus_portkit_score(portkit, fixtures)
        scores = corpus_peer_scores(peers, fixtures)
        body += corpus_section(fixtures, pk, scores, titles)
        goals["recall of labelled defects at least 95% (rule-exact)"] = (
            f"{'met' if pk.pairs_found >= 0.95 * pk.pairs else 'not met'}: {pct(pk.pairs_found, pk.pairs)}"
        )
        goals["no finding on correct fixtures"] = f"{'met' if pk.false_ok == 0 else 'not met'}: {pk.false_ok} lines"
    if args.only != "corpus":
        prepared, skipped = prepare_projects(args.cache, args.project)
        portkit_runs: dict[str, PortkitRun] = {}
        counts: dict[str, dict[str, Count]] = {}
        times: dict[str, dict[str, list[float]]] = {}
        for p in prepared:
            name = p.project.name
            say(f"{name}: {len(p.sources)} files, counting findings")
            portkit_runs[name] = count_portkit(portkit, p, args.cache)
            skip = dict(p.project.left_out)
            counts[name] = {peer.key: count_peer(peer, p) for peer in peers if peer.key not in skip}
            say(f"{name}: timing, {args.rounds} rounds")
            times[name] = timings(portkit, p, args.cache, args.rounds)
        if prepared:
            lines, real_goals = real_section(prepared, portkit_runs, counts, titles, times, args.rounds, skipped)
            body += lines
            goals.update(real_goals)
    goal_rows = ["| goal (the issue's) | result |", "|---|---|", *(f"| {k} | {v} |" for k, v in goals.items())]
    section = "\n".join([*header, *goal_rows, "", *body, END]) + "\n"
    print(section)
    if args.write:
        heading = "## Scan: `portkit scan` against compilers and linters\n\n"
        heading += f"`python {Path(__file__).relative_to(ROOT)} --write docs/benchmarks.md`\n\n"
        write_section(args.write, section, BEGIN, END, heading)


def prepare_projects(cache: Path, only: Sequence[str] | None) -> tuple[list[Prepared], list[str]]:
    """Each project (those named in `only`, else all) fetched, built and with its
    compile database; the ones that cannot be, with why."""
    if why := ensure_deb_src():
        sys.exit(f"scan-bench: cannot fetch sources: {why}")
    if absent := missing(["apt-get", "dpkg-source"]):
        sys.exit(f"scan-bench: cannot fetch sources, not found: {', '.join(absent)}")
    prepared: list[Prepared] = []
    skipped: list[str] = []
    for project in PROJECTS:
        if only and project.name not in only:
            continue
        if absent := missing(project.needs):
            skipped.append(f"{project.name} (not found: {', '.join(absent)})")
            say(f"{project.name}: skipped, not found: {', '.join(absent)}")
            continue
        try:
            prepared.append(prepare(project, cache))
        except RuntimeError as err:
            skipped.append(f"{project.name} ({err})")
            say(f"{project.name}: skipped: {err}")
    return prepared, skipped


if __name__ == "__main__":
    main()
