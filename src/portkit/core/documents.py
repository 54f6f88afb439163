"""Reading portkit's documents: the versioned JSON the agent prints, checked
against the schema this portkit reads, and the strings in it decoded as the
agent had them (core.target runs the agent; the commands render what this
returns); and a JSON file given as an input (--baseline, a saved result),
read or refused in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

from portkit.core.errors import BadInput, EnvironmentProblem


def read_document(stdout: str, schema: str, agent: Path) -> dict:
    """The agent's document, or one line naming the agent when it printed
    something else than a document of `schema` (exit 3: a mismatched agent)."""
    try:
        document = json.loads(stdout)
    except json.JSONDecodeError as err:
        raise EnvironmentProblem(f"the agent {agent} printed invalid JSON ({err.msg} at line {err.lineno})") from None
    found = document.get("schema") if isinstance(document, dict) else None
    if found != schema:
        raise EnvironmentProblem(
            f"the agent {agent} answered with schema {found!r}, this portkit reads {schema!r}",
            hint="use the agent built from the same portkit version",
        )
    return document


def agent_string(value: str) -> str:
    """A string of an agent document as the agent had it (a file name, say):
    its JSON writes each non-ASCII byte as one \\u00XX, so the bytes come back
    through Latin-1 and are decoded as this system decodes names."""
    try:
        return os.fsdecode(value.encode("latin-1"))
    except UnicodeEncodeError:  # not from the byte-escaping writer: already text
        return value


def parse_json(data: str | bytes, where: str) -> object:
    """A JSON input's value, or one line naming it (where) and what is wrong."""
    try:
        return json.loads(data)
    except UnicodeDecodeError:
        raise BadInput(f"{where}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as err:
        raise BadInput(f"{where}: not JSON ({err.msg} at line {err.lineno} column {err.colno})") from None
    except (ValueError, RecursionError) as err:  # digits past Python's limit, nesting past the stack
        raise BadInput(f"{where}: not JSON portkit can read ({type(err).__name__})") from None


def read_json_file(path: str | Path, where: str) -> object:
    """parse_json of a file's bytes; a file that cannot be read is one line too."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise BadInput(f"{where}: {err.strerror}") from None
    return parse_json(data, where)
