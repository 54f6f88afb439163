"""Running another portkit command here, through its own parser and run
function (its options checked, its progress line, its warnings), and taking
its `--format json` document: the report never re-implements a check."""

from __future__ import annotations

import json
import shlex
import tempfile
from collections.abc import Sequence
from pathlib import Path

from portkit.commands.report.model import Source
from portkit.core.errors import EnvironmentProblem, Exit, PortkitError
from portkit.core.output import error


def shown(argv: Sequence[str]) -> str:
    """The command as a user would type it: `portkit scan 'my src/'`."""
    return shlex.join(["portkit", *argv])


def run_command(area: str, argv: Sequence[str], *, quiet: bool) -> Source:
    """`portkit ARGV --format json` run in this process; its document, or the
    one line that says why there is none (printed as the command would)."""
    from portkit.cli import build_parser

    label = shown(argv)
    with tempfile.TemporaryDirectory(prefix="portkit-report-") as directory:
        output = Path(directory) / "document.json"
        words = [*argv, "--format", "json", "-o", str(output), *(["--quiet"] if quiet else [])]
        try:
            args = build_parser(words).parse_args(words)
            code = int(args.run(args))
        except EnvironmentProblem as err:
            return _failed(area, label, err, environment=True)
        except PortkitError as err:
            return _failed(area, label, err, environment=False)
        try:
            document = json.loads(output.read_text())
        except (OSError, ValueError):
            # a command that wrote nothing and did not say why: its exit code is all there is
            why = f"{label}: ended with exit status {code} and no result"
            error(why)
            return Source(area, label, "run", error=why, environment=code == Exit.ENVIRONMENT)
    # exit 2 with a document: some operands were refused (the command said which), the rest stands
    kind = str(document.get("schema")) if isinstance(document, dict) else ""
    return Source(area, label, "run", kind, document=document, bad_input=code == Exit.USAGE)


def _failed(area: str, label: str, err: PortkitError, *, environment: bool) -> Source:
    why = f"{err} (hint: {err.hint})" if err.hint else str(err)
    error(why)
    return Source(area, label, "run", error=why, environment=environment)
