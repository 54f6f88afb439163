"""compile_commands.json: the -I/-D/-U/-std flags each file was compiled with."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from portkit.core.errors import BadInput


def load_compile_commands(path: Path | None) -> dict[str, list[str]]:
    if path is None:
        return {}
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
        out: dict[str, list[str]] = {}
        for e in entries:
            directory = Path(e.get("directory", "."))
            argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            keep: list[str] = []
            it = iter(argv[1:])
            for a in it:
                if a in ("-I", "-D", "-isystem", "-include"):
                    val = next(it, "")
                    a = a + (str(directory / val) if a in ("-I", "-isystem") else val)
                    keep.append(a)
                elif a.startswith("-I"):
                    keep.append("-I" + str(directory / a[2:]))
                elif a.startswith(("-D", "-U", "-std=")):
                    keep.append(a)
            out[str((directory / e["file"]).resolve())] = keep
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise BadInput(f"{path}: not a compile_commands.json ({err})") from None
