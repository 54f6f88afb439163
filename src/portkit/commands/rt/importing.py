"""`portkit rt import FILE... -o DIR`: each file's runs as `portkit.rt/1`
documents in DIR, one JSON each, named after the file. Two inputs of one
name (board1/cyclictest.txt, board2/cyclictest.txt) get names of their own,
and a result imported earlier from another file is never replaced: the new
one gets the next free name. What went where is the command's output
(`portkit.rt-import/1` with --format json)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from portkit.core.command import add_command, add_output_directory
from portkit.core.errors import BadInput, Exit
from portkit.core.output import emit, error, output_directory, warn, write_atomically

SCHEMA = "portkit.rt-import/1"
EXAMPLES = (
    "examples:\n"
    "  portkit rt import cyclictest-h.txt run.json -o imported/\n"
    "  portkit rt import timerlat.txt --as rtla-timerlat-hist -o imported/"
)


def register(modes: argparse._SubParsersAction) -> None:
    parser = add_command(
        modes,
        "import",
        "cyclictest or rtla output into portkit results",
        None,
        EXAMPLES,
        import_results,
        runs_on="host",
        output_file=False,
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--as", dest="forced", metavar="FORMAT", help="the input's format when it cannot be told from its content"
    )
    add_output_directory(
        parser,
        "where the results go: one JSON per run, named after its file (board1-cyclictest.json when two share "
        "a name); an earlier import of another file is never replaced",
    )


def import_results(args: argparse.Namespace) -> int:
    from portkit.commands.rt.importers import import_file

    directory = output_directory(args.directory)
    taken: set[str] = set()  # names given in this run
    shared = {stem for stem, n in Counter(path.stem for path in args.files).items() if n > 1}
    entries, failed = [], []
    for path in args.files:
        try:
            result = import_file(path, args.forced)
        except BadInput as err:
            error(err)
            failed.append({"file": str(path), "error": str(err)})
            continue
        for problem in result.problems:
            warn(problem)
        written = []
        for index, document in enumerate(result.documents):
            suffix = f"-{index + 1}" if len(result.documents) > 1 else ""
            name = _free_name(directory, path, suffix, taken, by_folder=path.stem in shared)
            taken.add(name)
            out = directory / f"{name}.json"
            write_atomically(out, json.dumps(document, indent=1) + "\n")
            written.append(str(out))
        entries.append({"file": str(path), "results": written, "problems": result.problems})
    document = {"schema": SCHEMA, "directory": str(directory), "imported": entries, "failed": failed}
    emit(args.format, document, render, None)
    return Exit.USAGE if failed else Exit.OK


def _free_name(directory: Path, path: Path, suffix: str, taken: set[str], by_folder: bool) -> str:
    """The file's name, or its folder's and its name (board1-cyclictest: first
    when inputs of this run share the name), else with -2, -3...: a name no
    other input of this run has, and no earlier import of another file holds
    in the directory."""
    candidates = [f"{path.stem}{suffix}"]
    folder = path.resolve().parent.name
    if folder:
        candidates.insert(0 if by_folder else 1, f"{folder}-{path.stem}{suffix}")
    n = 2
    while True:
        for name in candidates:
            if name not in taken and _free(directory / f"{name}.json", path):
                return name
        candidates = [f"{path.stem}{suffix}-{n}"]
        n += 1


def _free(out: Path, source: Path) -> bool:
    """out does not exist, or holds an earlier import of the same file (which this one updates)."""
    try:
        earlier = json.loads(out.read_text())
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False
    recorded = earlier.get("source", {}).get("file") if isinstance(earlier, dict) else None
    return recorded == str(source)


def render(document: dict) -> list[str]:
    lines = []
    for entry in document["imported"]:
        results = entry["results"]
        lines.append(f"{entry['file']} -> {', '.join(results) if results else 'no results'}")
    return lines
