"""Whether a file holds architecture-specific code (inline assembly,
intrinsics) where the source ABI's compiler would read it: what decides if
the rules that look at the code's home (PK801, PK802) need the file parsed a
second time, with function bodies, as the source ABI sees it.

The words are looked for in the file's text, then the mentions that no
compiler reads are set aside: comments ("asm() is needed for..."), #if
conditions (`defined(__arm__)`), and the regions the source ABI's
preprocessor leaves out (the x86 and MSVC branches of a file ported from
32-bit ARM). sqlite3.c mentions assembly thirteen times, all of them there.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

ARCH_SPECIFIC = re.compile(
    r"\basm\b|__asm|arm_neon|arm_acle|intrin\.h|__builtin_(?:arm|aarch64|ia32|neon|mips)_|__arm_"
)
# Every match of ARCH_SPECIFIC holds one of these: str.find passes over a
# 9 MB file in milliseconds, where the regex alone takes most of a second.
_LITERALS = ("asm", "arm_", "intrin.h", "__builtin_")
# What a compiler does not read as code, lexed from a point known to be
# outside any comment: strings and characters (passed over whole, so that
# "/*" in one opens nothing; what they hold counts as code), comments, and
# #if/#elif conditions with their continuation lines.
_LEXEMES = re.compile(
    r'"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'"
    r"|(?P<comment>//(?:\\\n|[^\n])*|/\*[\s\S]*?(?:\*/|\Z))"
    r"|(?P<condition>^[ \t]*\#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b(?:\\\n|/\*[\s\S]*?\*/|[^\n])*)",
    re.MULTILINE,
)
_DIRECTIVE = re.compile(r"[ \t]*#")


def mentions(text: str) -> list[int]:
    """Where ARCH_SPECIFIC matches in text (offsets, in order)."""
    lines: set[int] = set()
    for literal in _LITERALS:
        at = text.find(literal)
        while at != -1:
            lines.add(text.rfind("\n", 0, at) + 1)
            at = text.find(literal, at + 1)
    found = []
    for start in sorted(lines):
        end = text.find("\n", start)
        found += [start + m.start() for m in ARCH_SPECIFIC.finditer(text[start : end if end != -1 else len(text)])]
    return found


def read_as_code(text: str, offsets: Sequence[int], skipped: Sequence[tuple[int, int]]) -> bool:
    """Whether any of these mentions (offsets in text, from mentions()) is
    code a compiler reads, given the regions (first, last line) its
    preprocessor left out of the file."""
    skipped = sorted(skipped)
    firsts = [first for first, _ in skipped]
    line, counted = 1, 0  # lines counted on from the mention before (each from the start: 0.03 s of sqlite3.c)
    for offset in sorted(offsets):
        line += text.count("\n", counted, offset)
        counted = offset
        index = bisect.bisect_right(firsts, line) - 1
        if index >= 0 and line <= skipped[index][1]:
            continue  # in a region the preprocessor left out
        if not _in_comment_or_condition(text, offset, _safe_start(text, offset, line, skipped[: index + 1])):
            return True
    return False


def _safe_start(text: str, offset: int, line: int, before: Sequence[tuple[int, int]]) -> int:
    """An offset before `offset` where no comment or string is open: the
    start of the nearest left-out region's first line (an #if, #elif or #else
    the compiler read as a directive), else the start of the file."""
    start, at = offset, line
    for first, _ in reversed(before):
        while at >= first and start > 0:  # back to the newline that ends line first - 1
            start = text.rfind("\n", 0, start)
            at -= 1
        if start <= 0:
            return 0
        if _DIRECTIVE.match(text, start + 1):
            return start + 1
    return 0


def _in_comment_or_condition(text: str, offset: int, start: int) -> bool:
    end = text.find("\n", offset)
    end = len(text) if end == -1 else end
    for lexeme in _LEXEMES.finditer(text, start, end):
        if lexeme.start() > offset:
            return False
        if lexeme.end() > offset:
            return lexeme.lastgroup is not None
    return False
