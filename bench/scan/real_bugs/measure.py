"""`portkit scan` and its peers on real 64-bit defects: recall on the corpus of
corpus.toml (defects fixed upstream after the version Debian 12 ships, in the
files as bookworm's `apt-get source` gives them).

For each package of the recipe: `apt-get source --download-only NAME=VERSION`,
`dpkg-source -x`, the recipe's configure step in the unpacked tree (once), then
every tool on each defect's file with the package's -D/-I flags and the
target of the defect's data model (aarch64-linux-gnu for LP64, MinGW
x86_64-w64-mingw32 for LLP64):

    portkit scan -p DB --from HOME --to MODEL FILES   (DB: those files with those flags;
                                             HOME: ILP32, or LP64 for portable code)
    aarch64-linux-gnu-gcc -fsyntax-only -Wall -Wextra -Wconversion -Wformat -Wimplicit-function-declaration
    clang --target=aarch64-linux-gnu -fsyntax-only -Wshorten-64-to-32 -Wconversion -Wformat
    cppcheck --enable=portability --platform=unix64
    clang-tidy -checks=-*,bugprone-*,...,portability-* (bench/scan/run.py's TIDY_CHECKS)

A defect is found by a tool when one of the tool's diagnostics, or a note
attached to it, points at one of the defect's lines. Every portkit miss is
listed with the reason the recipe's `miss` gives (a person's reading of why);
a miss without one is shown as such.

    python bench/scan/real_bugs/measure.py [--write docs/benchmarks.md] [--only PACKAGE]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shlex
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/scan: run.py, the scan bench's helpers
sys.path.insert(0, str(HERE))
import recipe as corpus_recipe  # noqa: E402
import run as scanbench  # noqa: E402  (fetching, the peers, their output parsers)

from benchlib import machine, write_section  # noqa: E402

BEGIN, END = "<!-- scan-real-bugs:begin -->", "<!-- scan-real-bugs:end -->"
DASH = "\u2013"
CONFIGURED = ".portkit-bench-configured"  # the configure step that has run in a tree


def say(message: str) -> None:
    print(f"real-bugs: {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ the peers


def _gcc(s: scanbench.Source) -> list[str]:
    warnings = ["-Wall", "-Wextra", "-Wconversion", "-Wformat", "-Wimplicit-function-declaration"]
    return [scanbench._cc(s), "-fsyntax-only", *warnings, *s.flags, str(s.path)]


def _clang(s: scanbench.Source) -> list[str]:
    warnings = ["-Wshorten-64-to-32", "-Wconversion", "-Wformat"]
    return ["clang", f"--target={scanbench.TRIPLES[s.model]}", "-fsyntax-only", *warnings, *s.flags, str(s.path)]


PEERS: tuple[scanbench.Peer, ...] = (
    scanbench.Peer(
        "gcc",
        "gcc -Wall -Wextra -Wconversion -Wformat",
        ("aarch64-linux-gnu-gcc", "x86_64-w64-mingw32-gcc"),
        _gcc,
        scanbench.parse_gnu,
        ("aarch64-linux-gnu-gcc", "--version"),
    ),
    scanbench.Peer(
        "clang",
        "clang -Wshorten-64-to-32 -Wconversion -Wformat",
        ("clang",),
        _clang,
        scanbench.parse_gnu,
        ("clang", "--version"),
    ),
    *(p for p in scanbench.PEERS if p.key in ("cppcheck", "clang-tidy")),
)


# ------------------------------------------------------------------ fetching and configuring


def fetch_pinned(package: corpus_recipe.Package, into: Path) -> Path:
    """The unpacked tree of exactly bookworm's version (fetched and unpacked once)."""
    where = into / package.name  # a tree per recipe name: a Windows configuration has its own
    where.mkdir(parents=True, exist_ok=True)
    source = package.debian_source
    bare = package.version.split(":", 1)[-1]  # apt's file names leave out the epoch
    tree = where / f"{source}-{bare}"
    if (tree / "debian").is_dir():
        return tree
    dscs = list(where.glob(f"{source}_{bare}.dsc"))
    if not dscs:
        proc = scanbench.run(["apt-get", "source", "--download-only", f"{source}={package.version}"], where)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"apt-get source {source}={package.version} failed: {last}")
        dscs = list(where.glob(f"{source}_{bare}.dsc"))
        if not dscs:
            raise RuntimeError(f"apt-get source left no {source}_{bare}.dsc")
    proc = scanbench.run(["dpkg-source", "-x", "--no-check", dscs[0].name, tree.name], where)
    if proc.returncode != 0 or not (tree / "debian").is_dir():
        raise RuntimeError(f"dpkg-source -x {dscs[0].name} failed: {proc.stderr.strip()[-300:]}")
    return tree


def configure(package: corpus_recipe.Package, tree: Path) -> None:
    """The recipe's configure step, once per tree; a failure is the package's reason to be skipped."""
    command = shlex.join(package.configure)
    marker = tree / CONFIGURED
    if not package.configure or (marker.exists() and marker.read_text().strip() == command):
        return
    say(f"{package.name}: {command}")
    proc = scanbench.run(package.configure, tree, timeout=1800)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise RuntimeError(f"{command[:60]} failed: {' / '.join(tail)}")
    marker.write_text(command + "\n")  # a changed step in the recipe runs again


def mismatch(defect: corpus_recipe.Defect, tree: Path) -> str:
    """'' when the defect's file has its lines, else why the recipe does not match the source."""
    path = tree / defect.file
    if not path.is_file():
        return f"{defect.file} is not in {tree.name}"
    count = len(path.read_bytes().splitlines())
    return "" if max(defect.lines) <= count else f"{defect.file} has {count} lines, fewer than {max(defect.lines)}"


# ------------------------------------------------------------------ checking


@dataclass(frozen=True)
class Case:
    """One defect, ready for the tools."""

    defect: corpus_recipe.Defect
    source: scanbench.Source


@dataclass
class Verdict:
    found: bool = False
    failed: str = ""  # the tool could not check the file completely: why
    said: list[str] = field(default_factory=list)  # what it reported on the defect's lines


def on_lines(diags: Iterable[scanbench.Diag], path: Path, lines: Sequence[int]) -> list[str]:
    """The messages (with the flag or check) of the diagnostics that point at one of `lines` of `path`."""
    wanted = set(lines)
    return [f"{d.message} [{d.flag}]" if d.flag else d.message for d in diags if d.lines_in(path) & wanted]


def peer_verdict(peer: scanbench.Peer, case: Case) -> Verdict:
    outcome = scanbench.check(peer, case.source)
    if outcome is None:
        return Verdict(failed="cannot take this file")
    said = on_lines(outcome.diags, case.source.path, case.defect.lines)
    return Verdict(bool(said), outcome.failed, said)


def compile_database(cases: Sequence[Case], directory: Path) -> Path:
    """A compile_commands.json for these files with their flags, as portkit -p reads it."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = {
        str(c.source.path): {
            "directory": str(c.source.cwd),
            "file": str(c.source.path),
            "arguments": ["cc", *c.source.flags, "-c", str(c.source.path)],
        }
        for c in cases
    }
    db = directory / "compile_commands.json"
    db.write_text(json.dumps(list(entries.values()), indent=1) + "\n")
    return db


def findings_by_line(document: Mapping, cwd: Path) -> dict[Path, dict[int, list[str]]]:
    """portkit's JSON findings: path -> line -> 'RULE message'."""
    out: dict[Path, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for f in document.get("findings", []):
        where = f["location"]
        path = Path(os.path.normpath(cwd / where["path"]))
        out[path][int(where["line"])].append(f"{f['rule']} {f.get('message', '')}".strip())
    return out


def incomplete_paths(document: Mapping, cwd: Path) -> dict[Path, str]:
    """The files portkit could not parse completely, with its reason."""
    out: dict[Path, str] = {}
    for item in document.get("incomplete", []):
        path = Path(os.path.normpath(cwd / item.get("path", "")))
        out[path] = item.get("reason") or item.get("message") or "could not be parsed completely"
    return out


def portkit_verdicts(portkit: list[str], cases: Sequence[Case], work: Path) -> dict[str, Verdict]:
    """One portkit run per (package, model): its files through a compile database of their flags."""
    groups: dict[tuple[str, str, str], list[Case]] = defaultdict(list)
    for c in cases:
        groups[(c.defect.package, c.defect.home, c.defect.model)].append(c)
    verdicts: dict[str, Verdict] = {}
    for (package, home, model), group in groups.items():
        cwd = group[0].source.cwd
        db = compile_database(group, work / "db" / f"{package}-{home}-{model}")
        files = sorted({str(c.source.path) for c in group})
        move = ["--from", home, "--to", model]
        document = scanbench.portkit_scan(portkit, ["-p", str(db), *move, "--no-cache", *files], cwd)
        found = findings_by_line(document, cwd)
        incomplete = incomplete_paths(document, cwd)
        for c in group:
            lines = found.get(c.source.path, {})
            said = [msg for n in c.defect.lines for msg in lines.get(n, [])]
            verdicts[c.defect.key] = Verdict(bool(said), incomplete.get(c.source.path, ""), said)
    return verdicts


# ------------------------------------------------------------------ the report


def pct(hit: int, total: int) -> str:
    return f"{hit}/{total} ({100 * hit / total:.0f}%)" if total else DASH


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def model_cell(d: corpus_recipe.Defect) -> str:
    """The model it breaks in, and where it came from when that is not 32-bit code."""
    return d.model if d.home == "ILP32" else f"{d.model} (from {d.home})"


def mark(v: Verdict | None) -> str:
    if v is None:
        return DASH
    if v.found:
        return "found" + (" (incomplete)" if v.failed else "")
    return "stopped" if v.failed else "no"


def report(
    recipe: corpus_recipe.Recipe,
    cases: Sequence[Case],
    results: Mapping[str, Mapping[str, Verdict]],
    titles: Mapping[str, str],
    skipped: Sequence[str],
) -> list[str]:
    tools = ["portkit", *titles]
    names = {"portkit": "**portkit scan**", **titles}
    classes = sorted({c.defect.kind for c in cases})
    rows = [
        "| tool | defects found (recall) | " + " | ".join(classes) + " | files it stopped on |",
        "|---|---:|" + "---:|" * len(classes) + "---:|",
    ]
    for tool in tools:
        got = results[tool]
        per_class = []
        for kind in classes:
            of_kind = [c for c in cases if c.defect.kind == kind]
            per_class.append(pct(sum(got[c.defect.key].found for c in of_kind), len(of_kind)))
        stopped = len({c.source.path for c in cases if got[c.defect.key].failed})
        found = sum(got[c.defect.key].found for c in cases)
        rows.append(f"| {names[tool]} | {pct(found, len(cases))} | " + " | ".join(per_class) + f" | {stopped} |")
    union = sum(any(results[t][c.defect.key].found for t in titles) for c in cases)
    table = [
        "| package | where (bookworm's lines) | class | model | " + " | ".join(names[t] for t in tools) + " |",
        "|---|---|---|---|" + "---|" * len(tools),
    ]
    for c in cases:
        d = c.defect
        lines = ",".join(map(str, d.lines))
        table.append(
            f"| [{d.package}]({d.fix}) | {d.file}:{lines} | {d.kind} | {model_cell(d)} | "
            + " | ".join(mark(results[t][d.key]) for t in tools)
            + " |"
        )
    misses = []
    for c in cases:
        v, d = results["portkit"][c.defect.key], c.defect
        if v.found:
            continue
        reason = d.miss or "**no reason written yet**"
        if v.failed:
            reason = f"the file was not parsed completely ({v.failed}); {reason}"
        where = f"{d.file}:{','.join(map(str, d.lines))}"
        misses.append(f"- {d.package} {where} ({d.kind}, {model_cell(d)}): {cell(reason)}")
    stale = [
        f"- {c.defect.package} {c.defect.file}: found now, but the recipe still gives a reason for a miss"
        for c in cases
        if results["portkit"][c.defect.key].found and c.defect.miss
    ]
    stops = [
        f"- {names[t]} on {c.defect.file}: {cell(results[t][c.defect.key].failed)}"
        for t in tools
        for c in cases
        if results[t][c.defect.key].failed
    ]
    via = Counter(c.defect.found_via for c in cases)
    kinds = Counter(c.defect.kind for c in cases)
    return [
        f"**Corpus.** {len(cases)} defects in {len({c.defect.package for c in cases})} Debian bookworm source "
        f"packages ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}; "
        f"{sum(c.defect.model == 'LLP64' for c in cases)} LLP64); found through "
        + ", ".join(f"{k} {n}" for k, n in sorted(via.items()))
        + ".",
        "",
        *(["Skipped: " + "; ".join(skipped) + ".", ""] if skipped else []),
        *rows,
        "",
        f"Found by at least one peer: {pct(union, len(cases))}.",
        "",
        *table,
        "",
        *(["Where a tool could not check a file completely:", "", *stops, ""] if stops else []),
        "**Every portkit miss, and why:**",
        "",
        *(misses or ["- none"]),
        "",
        *(["Reasons to re-read (the defect is found now):", "", *stale, ""] if stale else []),
    ]


def tool_versions(peers: Sequence[scanbench.Peer], portkit: list[str], cases: Sequence[Case]) -> list[str]:
    """Each tool's version; the MinGW compiler's too when LLP64 entries are checked with it."""
    out = scanbench.versions(peers, portkit)
    if any(c.defect.model == "LLP64" for c in cases) and any(p.key == "gcc" for p in peers):
        text = scanbench.run([scanbench.TRIPLES["LLP64"] + "-gcc", "--version"]).stdout
        out.append((text.strip().splitlines() or ["x86_64-w64-mingw32-gcc: ?"])[0])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=Path, help="replace this corpus's section of a markdown file")
    parser.add_argument("--only", metavar="PACKAGE", help="one package of the recipe")
    parser.add_argument("--cache", type=Path, default=scanbench.cache_dir() / "real-bugs", help="sources (%(default)s)")
    parser.add_argument("--portkit", help="the portkit command (default: python -m portkit from this interpreter)")
    args = parser.parse_args()
    try:
        recipe = corpus_recipe.load()
    except corpus_recipe.RecipeError as err:
        sys.exit(f"real-bugs: {err}")
    if args.only and args.only not in recipe.packages:
        sys.exit(f"real-bugs: --only {args.only}: no such package in the recipe")
    if args.write and args.only:
        parser.error("--write needs the whole corpus: leave out --only")
    if why := scanbench.ensure_deb_src():
        sys.exit(f"real-bugs: cannot fetch sources: {why}")
    if absent := scanbench.missing(["apt-get", "dpkg-source"]):
        sys.exit(f"real-bugs: cannot fetch sources, not found: {', '.join(absent)}")
    portkit = scanbench.portkit_command(args.portkit)
    peers, left_out = [], []
    for peer in PEERS:
        if absent := scanbench.missing(peer.programs):
            left_out.append(f"{peer.title} (not found: {', '.join(absent)})")
        else:
            peers.append(peer)
    cases: list[Case] = []
    skipped: list[str] = []
    for name, package in recipe.packages.items():
        if args.only and name != args.only:
            continue
        try:
            tree = fetch_pinned(package, args.cache / "src")
            configure(package, tree)
        except (RuntimeError, OSError) as err:
            skipped.append(f"{name} {package.version} ({err})")
            say(f"{name}: skipped: {err}")
            continue
        for d in (d for d in recipe.defects if d.package == name):
            if why := mismatch(d, tree):
                skipped.append(f"{d.key} (the recipe does not match the source: {why})")
                continue
            flags = (*package.flags, *(f"-D{x}" for x in d.defines))
            cases.append(Case(d, scanbench.Source((tree / d.file).resolve(), tree.resolve(), flags, d.model)))
    if not cases:
        sys.exit("real-bugs: no defect could be prepared: " + "; ".join(skipped))
    say(f"{len(cases)} defects: portkit and {len(peers)} peers")
    results: dict[str, dict[str, Verdict]] = {"portkit": portkit_verdicts(portkit, cases, args.cache)}
    jobs = [(peer, c) for peer in peers for c in cases]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for (peer, c), v in zip(jobs, pool.map(lambda j: peer_verdict(*j), jobs), strict=True):
            results.setdefault(peer.key, {})[c.defect.key] = v
    titles = {p.key: p.title for p in peers}
    section = [
        BEGIN,
        f"Machine: {machine()}.",
        "",
        "Versions: " + "; ".join(tool_versions(peers, portkit, cases)) + ".",
        "",
        *(["Left out: " + "; ".join(left_out) + ".", ""] if left_out else []),
        *report(recipe, cases, results, titles, skipped),
        END,
    ]
    text = "\n".join(section) + "\n"
    print(text)
    if args.write:
        heading = "## Scan: real 64-bit defects fixed upstream after Debian 12\n\n"
        heading += "`python bench/scan/real_bugs/measure.py --write docs/benchmarks.md`\n\n"
        write_section(args.write, text, BEGIN, END, heading)


if __name__ == "__main__":
    main()
