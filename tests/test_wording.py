"""Words a user understands: the product names its scenarios (the field
reports, by their subject), never by the word the project used for them
internally. Random-number seeds are fine."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

OLD_WORD = "se" + "ed"  # spelt apart, so that this file does not say it either
SAYS_IT = re.compile(rf"\b{OLD_WORD}s?\b|{OLD_WORD}'s", re.IGNORECASE)
RANDOM = re.compile(
    rf"random|hypothesis|srand|{OLD_WORD} ?=|{OLD_WORD}\)|_{OLD_WORD}|{OLD_WORD}_t|prng|xorshift|{OLD_WORD} [<>]{{2}}",
    re.IGNORECASE,
)
PLACES = ["src", "native", "scripts", "README.md", "docs", "examples", "tests", "bench"]


def lines_saying_it() -> list[str]:
    found = []
    for place in PLACES:
        path = ROOT / place
        for file in sorted([path] if path.is_file() else path.rglob("*")):
            if not file.is_file() or "__pycache__" in file.parts:
                continue
            data = file.read_bytes()
            if b"\0" in data[:8192]:  # a binary file: an image, a built module
                continue
            for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
                if SAYS_IT.search(line) and not RANDOM.search(line):
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_product_names_its_scenarios_by_their_subject() -> None:
    assert lines_saying_it() == []


def test_file_names_say_what_the_files_hold() -> None:
    names = [str(p.relative_to(ROOT)) for place in PLACES for p in Path(ROOT / place).rglob(f"*{OLD_WORD}*")]
    assert names == []
