"""The labelled corpus for `portkit scan` (tests/data/scan/): what each fixture
wants reported, which data-model pair it is scanned for, and how to build and
run it for the two models of that pair.

A fixture is one C or C++ file. Its labels are comments on the line they speak of:

    addr = (int) a;              /* want: PK101 */      this line must get PK101, and nothing else
    addr = (intptr_t) a;         /* ok: PK101 */        a near miss: no finding at all here
    int usec = tv.tv_usec;       /* want: PK301 ok: PK302 */

A line without `want` must get no finding. `ok` only documents (and lets the
corpus be counted): which rule the correct idiom on that line must not trip.
Directives sit in the comment lines at the top of the file:

    /* scan-args: --to LLP64 */   line 1: the options `portkit scan` needs for this file
    /* cflags: -fno-builtin */    extra compiler flags for both targets (the next comment says why)

A fixture with `int main` is runnable when both models of its pair run under
qemu-user; its output must differ between the two exactly when it has labels.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "scan"
# The demo input of examples/legacy32, labelled the same way (not part of fixtures()).
DEMO = ROOT / "examples" / "legacy32" / "src" / "legacy.c"

# rule id -> severity; the ids are fixed (docs/rules.md is generated from the rules: tools/gen_rules_doc.py).
RULES: dict[str, str] = {
    "PK101": "error",
    "PK102": "error",
    "PK103": "error",
    "PK201": "warning",
    "PK202": "error",
    "PK301": "warning",
    "PK302": "warning",
    "PK303": "warning",
    "PK401": "warning",
    "PK402": "warning",
    "PK403": "warning",
    "PK404": "warning",
    "PK501": "warning",
    "PK502": "warning",
    "PK601": "warning",
    "PK602": "warning",
    "PK701": "error",
    "PK702": "error",
    "PK703": "error",
    "PK801": "note",
    "PK802": "note",
}

# rule PKnxx -> the folder of its family, "n-..."
FAMILIES: dict[str, str] = {
    "1": "1-pointers",
    "2": "2-formats",
    "3": "3-narrowing",
    "4": "4-magic",
    "5": "5-layout",
    "6": "6-loops",
    "7": "7-calls",
    "8": "8-arch",
}

# data model -> the GNU triple whose compiler is its ground truth
MODELS: dict[str, str] = {
    "ILP32": "arm-linux-gnueabihf",
    "LP64": "aarch64-linux-gnu",
    "LLP64": "x86_64-w64-mingw32",
}
DEFAULT_PAIR = ("ILP32", "LP64")

# triple -> qemu-user program; a triple without one (MinGW) is compiled, never run
EMULATORS: dict[str, str] = {
    "arm-linux-gnueabihf": "qemu-arm",
    "aarch64-linux-gnu": "qemu-aarch64",
}

# The flags every fixture is built with; -w because legacy code is full of warnings
# and the point is what it does, not what GCC thinks of it.
CFLAGS = ("-O0", "-w")

_COMMENT = re.compile(r"/\*.*?\*/|//.*$")
_LABEL = re.compile(r"\b(want|ok):((?:\s+[A-Z]+\d+)+)")
_DIRECTIVE = re.compile(r"^/\*\s*(scan-args|cflags):\s*(.*?)\s*\*/\s*$")
_MAIN = re.compile(r"^\s*int\s+main\s*\(", re.MULTILINE)


@dataclass(frozen=True)
class Fixture:
    path: Path
    want: Mapping[int, frozenset[str]]  # line -> rule ids that line must get
    ok: Mapping[int, frozenset[str]]  # line -> rule ids that line is a near miss for
    scan_args: tuple[str, ...] = ()
    cflags: tuple[str, ...] = ()
    has_main: bool = False
    directive_lines: Mapping[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The path below tests/data/scan (e.g. '1-pointers/handle_table.c'), or
        below the repository for a labelled file elsewhere (the legacy32 demo)."""
        base = CORPUS if self.path.is_relative_to(CORPUS) else ROOT
        return self.path.relative_to(base).as_posix()

    def __str__(self) -> str:  # pytest ids
        return self.name

    @property
    def family(self) -> str:
        return self.path.parent.name

    @property
    def cxx(self) -> bool:
        return self.path.suffix in (".cpp", ".cc", ".cxx")

    @property
    def models(self) -> tuple[str, str]:
        """(source model, target model), from --from/--to in scan-args."""
        source, target = DEFAULT_PAIR
        args = list(self.scan_args)
        for i, arg in enumerate(args[:-1]):
            if arg == "--from":
                source = args[i + 1]
            elif arg == "--to":
                target = args[i + 1]
        return source, target

    @property
    def triples(self) -> tuple[str, str]:
        source, target = self.models
        return MODELS[source], MODELS[target]

    @property
    def runnable(self) -> bool:
        return self.has_main and all(t in EMULATORS for t in self.triples)

    @property
    def expected(self) -> frozenset[tuple[int, str]]:
        """Every (line, rule id) `portkit scan` must report for this file, and nothing else."""
        return frozenset((line, rule) for line, rules in self.want.items() for rule in rules)

    def mismatch(self, found: Iterable[tuple[int, str]]) -> str:
        """'' when `found` (line, rule id) pairs are exactly the labels, else a
        readable list of what is missing and what is extra, with the source lines."""
        found = frozenset(found)
        lines = self.path.read_text().splitlines()
        out = []
        for title, pairs in (("missing", self.expected - found), ("unexpected", found - self.expected)):
            for line, rule in sorted(pairs):
                text = lines[line - 1].strip() if 0 < line <= len(lines) else "?"
                out.append(f"{title} {rule} at {self.name}:{line}: {text}")
        return "\n".join(out)


def parse_labels(text: str) -> tuple[dict[int, frozenset[str]], dict[int, frozenset[str]]]:
    """(want, ok): line number -> rule ids, from the comments on each line."""
    want: dict[int, frozenset[str]] = {}
    ok: dict[int, frozenset[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for comment in _COMMENT.findall(line):
            for kind, ids in _LABEL.findall(comment):
                table = want if kind == "want" else ok
                table[number] = table.get(number, frozenset()) | frozenset(ids.split())
    return want, ok


def load(path: Path) -> Fixture:
    text = path.read_text()
    want, ok = parse_labels(text)
    directives: dict[str, tuple[str, ...]] = {}
    directive_lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith(("/*", "//")):
            break  # directives only in the leading comments
        m = _DIRECTIVE.match(line)
        if m:
            directives[m.group(1)] = tuple(shlex.split(m.group(2)))
            directive_lines[m.group(1)] = number
    return Fixture(
        path=path,
        want=want,
        ok=ok,
        scan_args=directives.get("scan-args", ()),
        cflags=directives.get("cflags", ()),
        has_main=bool(_MAIN.search(text)),
        directive_lines=directive_lines,
    )


def fixtures(*, field_report: bool = True) -> list[Fixture]:
    """Every fixture in the corpus, in a stable order; field_report=False leaves out ivi-report/."""
    paths = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp") and p.is_file())
    return [load(p) for p in paths if field_report or p.parent.name != "ivi-report"]


# ------------------------------------------------------------------ building and running


def compiler(triple: str, cxx: bool) -> str:
    return f"{triple}-{'g++' if cxx else 'gcc'}"


def missing_tools(fixtures_: Iterable[Fixture]) -> list[str]:
    """The compilers and emulators these fixtures need that are not on PATH."""
    need: set[str] = set()
    for fx in fixtures_:
        for triple in fx.triples:
            need.add(compiler(triple, fx.cxx))
            if fx.runnable:
                need.add(EMULATORS[triple])
    return sorted(tool for tool in need if shutil.which(tool) is None)


@dataclass(frozen=True)
class Build:
    triple: str
    output: Path  # the executable, or the object file for a fixture that is not run
    returncode: int
    stderr: str


def build(fx: Fixture, triple: str, out_dir: Path) -> Build:
    """Compiles a fixture for one triple: a static executable when it is runnable,
    an object file otherwise (still through the assembler, which checks inline asm)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{fx.name.replace('/', '__')}.{triple}"
    if fx.runnable:
        output, mode = out_dir / stem, ["-static"]
    else:
        output, mode = out_dir / f"{stem}.o", ["-c"]
    cmd = [compiler(triple, fx.cxx), *mode, *CFLAGS, *fx.cflags, str(fx.path), "-o", str(output)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    return Build(triple, output, proc.returncode, f"{shlex.join(cmd)}\n{proc.stderr}")


@dataclass(frozen=True)
class Run:
    triple: str
    returncode: int
    stdout: str
    stderr: str


def run(exe: Build) -> Run:
    """Runs a built fixture under its qemu-user, with a fixed small environment
    (the stack's contents, and so its addresses, do not depend on the caller's)."""
    proc = subprocess.run(
        [EMULATORS[exe.triple], str(exe.output)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"LC_ALL": "C", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        check=False,
    )
    return Run(exe.triple, proc.returncode, proc.stdout, proc.stderr)
