"""What `portkit scan` parses: the translation units cparse.inputs finds
(files, directories searched for C and C++ by extension, or a compilation
database), and the refusal when there is none."""

from __future__ import annotations

from collections.abc import Sequence

from portkit.core.errors import BadInput
from portkit.core.output import count
from portkit.cparse.inputs import TranslationUnit, units

__all__ = ["TranslationUnit", "require_some", "units"]


def require_some(units_found: Sequence[TranslationUnit], problems: Sequence[str]) -> None:
    if not units_found:
        first = problems[0] if problems else "name files or directories to scan, or -p a build directory"
        more = f" (and {count(len(problems) - 1, 'more problem')})" if len(problems) > 1 else ""
        raise BadInput(f"scan: nothing to scan: {first}{more}")
