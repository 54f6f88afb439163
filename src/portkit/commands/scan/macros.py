"""Findings made by a macro's body: one finding at the macro's definition,
not one at every use (jq's lexer expands YY_USER_ACTION 50 times, and the
line to change is the one in the #define).

clang gives every node of an expansion the place of the macro's name at the
use, and libclang has no call for where in the body a token was written. So
the definitions are read from the project's own files (#define and its
continuation lines), and the body line is the one that names most of what
the finding's expression names (`yylloc->end = yylloc->start + yyleng`),
looking into the project's macros that the body uses in turn
(YY_RULE_SETUP is `YY_USER_ACTION`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")
WORD = re.compile(r"[A-Za-z_]\w*")
DEPTH = 8  # macros used inside macros, followed this far


@dataclass(frozen=True)
class Macro:
    name: str
    path: str  # as findings show it
    line: int  # of the #define
    lines: tuple[str, ...]  # the definition, continuation lines included


ALIAS = re.compile(r"^\s*#\s*define\s+[A-Za-z_]\w*\s+[A-Za-z_]\w*\s*(?:/\*.*\*/\s*|//.*)?$")


def is_alias(macro: Macro) -> bool:
    """`#define xmlDictLookup xmlDictLookup__internal_alias`: another name
    for a function or variable, which makes no expression of its own (a
    call through it is written at the use, arguments and all)."""
    return len(macro.lines) == 1 and ALIAS.match(macro.lines[0]) is not None


@dataclass(frozen=True)
class Place:
    """Where a finding made by a macro goes: the line of its body, and the
    columns from the first to the last word of the expression found there."""

    macro: Macro
    line: int
    column: int
    end_column: int


# `#define NAME` where only blanks stand before the '#' on its line (checked
# apart: as a pattern `^[ \t]*#...` with re.MULTILINE, the search looked at
# every character, a third of a second for a 9 MB amalgamation).
DEFINES = re.compile(r"#[ \t]*define[ \t]+([A-Za-z_]\w*)")


def definitions(path: str, text: str) -> list[Macro]:
    """Every #define of a file's text, in order (a name may have several: a
    default under #ifndef, a redefinition after #undef)."""
    found: list[Macro] = []
    line, counted = 1, 0  # lines counted from the previous #define on: a 9 MB amalgamation has thousands
    for match in DEFINES.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if text[start : match.start()].strip(" \t"):
            continue  # not a directive: something else stands before the '#'
        line += text.count("\n", counted, start)
        counted = start
        end = text.find("\n", start)
        while end >= 0 and text[max(start, end - 2) : end].rstrip("\r \t").endswith("\\"):  # continued
            end = text.find("\n", end + 1)
        body = text[start : end if end >= 0 else len(text)]
        found.append(Macro(match[1], path, line, tuple(body.splitlines())))
    return found


class MacroIndex:
    """The project's macros, from the files it is given (read on first use)."""

    def __init__(self, macros: Callable[[], Iterable[Macro]]) -> None:
        self._read: Callable[[], Iterable[Macro]] | None = macros
        self._macros: dict[str, list[Macro]] = {}

    def get(self, name: str) -> list[Macro]:
        """The definitions of a name in the project's files (none: not one of its macros)."""
        if self._read is not None:
            read, self._read = self._read, None  # let go of the reader: it may hold what holds the index (a cycle)
            for macro in read():
                self._macros.setdefault(macro.name, []).append(macro)
        return self._macros.get(name, [])

    def place(
        self, name: str, names: Sequence[str], arguments: Sequence[str] = (), strict: bool = False
    ) -> Place | None:
        """The body line that names most of `names`, in a definition of the
        macro, else of the project's macros its body uses, nearest first;
        its first #define line when none names any (None with `strict`).
        `arguments`: the text of each argument at the use: a parameter names
        what its argument names."""
        wanted = set(names)
        seen = {name}
        level = self.get(name)
        for _ in range(DEPTH):
            best: tuple[tuple[int, int], Place] | None = None
            for candidate in level:
                passed = arguments if candidate.name == name else ()
                for score, place in _lines_naming(candidate, wanted, self._names_through, passed):
                    if best is None or score >= best[0]:  # a tie goes to the later line: a use after a declaration
                        best = (score, place)
            if best is not None:
                return best[1]
            following = []
            for current in level:
                for word in WORD.findall(" ".join(current.lines)):
                    if word not in seen:
                        seen.add(word)
                        following += self.get(word)
            level = following
        if strict:
            return None
        macro = self.get(name)[0]
        column = macro.lines[0].find(macro.name) + 1
        return Place(macro, macro.line, column, column + len(macro.name))

    def _names_through(self, word: str) -> set[str]:
        """The words a one-line macro stands for (`yyleng` is `yyg->yyleng_r`);
        none for other words, or for a macro of statements over several lines
        (whose own lines are searched in turn)."""
        return {w for macro in self.get(word) if len(macro.lines) == 1 for w in WORD.findall(macro.lines[0])}


def _lines_naming(macro: Macro, wanted: set[str], names_through: Callable[[str], set[str]], arguments: Sequence[str]):
    """(score, place) of each line of a definition that names something wanted:
    itself, or through a parameter whose argument names it, first; then
    through a one-line macro."""
    head = DEFINE.match(macro.lines[0])
    parameters = _parameters(macro.lines[0], head.end()) if head else []
    carrying = {p for p, text in zip(parameters, arguments, strict=False) if set(WORD.findall(text)) & wanted}
    for offset, text in enumerate(macro.lines):
        code = text.split("//")[0]
        start = _after_parameters(code, head.end()) if offset == 0 and head else 0
        words = [m for m in WORD.finditer(code) if m.start() >= start]
        direct = {m[0] for m in words if m[0] in wanted or m[0] in carrying}
        through = {m[0] for m in words if m[0] not in direct and names_through(m[0]) & wanted}
        if direct or through:
            used = [m for m in words if m[0] in direct | through]
            yield (
                (len(direct), len(through)),
                Place(macro, macro.line + offset, used[0].start() + 1, used[-1].end() + 1),
            )


def arguments_at(lines: Sequence[str], line: int, column: int) -> list[str]:
    """The arguments of a function-like macro's use whose name starts at
    (line, column), as text; [] for an object-like use."""
    text = "\n".join(lines[line - 1 : line + 49])[column - 1 :]
    name = WORD.match(text)
    rest = text[name.end() :] if name else ""
    stripped = rest.lstrip()
    if not stripped.startswith("("):
        return []
    found: list[str] = []
    depth, current = 0, []
    for char in stripped:
        if char == "(":
            depth += 1
            if depth == 1:
                continue
        elif char == ")":
            depth -= 1
            if depth == 0:
                found.append("".join(current))
                return found
        elif char == "," and depth == 1:
            found.append("".join(current))
            current = []
            continue
        current.append(char)
    return found


def _parameters(line: str, name_end: int) -> list[str]:
    if line[name_end : name_end + 1] != "(":
        return []
    close = line.find(")", name_end)
    return WORD.findall(line[name_end + 1 : close if close >= 0 else len(line)])


def _after_parameters(line: str, name_end: int) -> int:
    """Where a function-like macro's parameter list ends (directly after its name), else the name's end."""
    if line[name_end : name_end + 1] != "(":
        return name_end
    close = line.find(")", name_end)
    return close + 1 if close >= 0 else name_end
