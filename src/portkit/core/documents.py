"""Reading an agent's documents: the versioned JSON the agent prints, checked
against the schema this portkit reads, and the strings in it decoded as the
agent had them (core.target runs the agent; the commands render what this
returns)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from portkit.core.errors import EnvironmentProblem


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
