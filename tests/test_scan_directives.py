"""A C file's directives alone (portkit._directives, used for the regions
the source ABI's preprocessor leaves out): checked against clang's own
preprocessor, which must leave out the same lines of both texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from portkit._directives import directives_only

from portkit.core.abis import parse_abi
from portkit.cparse.libclang import cindex, skipped_lines
from portkit.cparse.parse import parse

HOME = parse_abi("arm")


def left_out(path: Path, text: str, std: str = "-std=gnu17") -> list[tuple[int, int]]:
    """The lines clang's preprocessor leaves out of text, parsed for HOME."""
    tu, _ = parse(str(path), HOME, ["-w", std], None, text, bodies=False, preprocessor_record=True)
    assert tu is not None
    return skipped_lines(cindex(), tu, str(path))


def line_breaks(text: str) -> int:
    return len(re.findall(r"\r\n|\r|\n", text))


def same_as_clang(path: Path, text: str) -> str:
    kept = directives_only(text)
    assert kept is not None
    assert line_breaks(kept) == line_breaks(text)
    assert left_out(path, kept) == left_out(path, text)
    return kept


# Each is a way a `#` or a line's end can be misread: the left-out lines
# are clang's, for the text and for its directives alone.
TRICKY = {
    "comment inside a directive": "#if A /* a\n b */ || 1\nint x;\n#else\nint y;\n#endif\n",
    "comment before the #": "/* x */ #ifdef NOPE\nint x;\n#endif\n",
    "multi-line comment before the # at a line start": "/* x\n */ #ifdef NOPE\nint x;\n#endif\n",
    "a # after code and a comment over two lines": "int a; /* c\n */ #define GONE\n#ifdef GONE\nint x;\n#endif\n",
    "a # after a splice": "int a = 1 \\\n#define GONE\n;\n#ifdef GONE\nint x;\n#endif\n",
    "a directive continued by a splice": "#if defined(NOPE) \\\n || defined(ALSO_NOPE)\nint x;\n#endif\n",
    "a string holding a comment's start": 'const char *s = "/*";\n#ifdef NOPE\nint x;\n#endif\n',
    "a string holding a #": 'const char *s = "\\\n#define GONE";\n#ifdef GONE\nint x;\n#endif\n',
    "a character holding a quote": "char c = '\"'; char d = '\\'';\n#ifdef NOPE\nint x;\n#endif\n",
    "an apostrophe in left-out text": "#if 0\ndon't /* here\n#endif\n#ifdef NOPE\n*/ int x;\n#endif\n",
    "a line comment continued by a splice": "// note \\\n#define GONE\n#ifdef GONE\nint x;\n#endif\n",
    "a digraph": "%:ifdef NOPE\nint x;\n%:endif\n",
    "carriage returns": "#ifdef NOPE\r\nint x;\r\n#else\r\nint y;\r\n#endif\r\n",
    "a macro's value decides": "#define LEVEL 3\n#if LEVEL > 2\nint a;\n#elif LEVEL\nint b;\n#else\nint c;\n#endif\n",
    "nested": "#if 1\n#ifdef NOPE\nint a;\n#else\nint b;\n#endif\n#endif\n",
    "an unterminated comment": "#ifdef NOPE\nint x;\n#endif\n/* never closed\n#ifdef NOPE\n",
    "a comment opened across a splice": "x = a /\\\n* comment\n#define GONE */;\n#ifdef GONE\nint x;\n#endif\n",
    "a comment closed across a splice": "/* c *\\\n/\n#ifdef NOPE\nint x;\n#endif\n",
    "splices with a NUL between": "\\\r\n\0\\\r\n#if 0\nint x;\n#endif\n",
    "a splice of \\n\\r": "x\\\n\r#if 0\nint x;\n#endif\n",
    "blanks between the backslash and the line break": "x \\  \n#define GONE\n#ifdef GONE\nint x;\n#endif\n",
}


@pytest.mark.parametrize("text", TRICKY.values(), ids=TRICKY.keys())
def test_clang_leaves_out_the_same_lines_of_the_directives_alone(tmp_path: Path, text: str) -> None:
    same_as_clang(tmp_path / "t.c", text)


def test_only_directives_and_line_breaks_are_kept() -> None:
    text = 'int a; /* c\n */ #define GONE\n#if A /* a\n b */ || B\nf("#x");\n  # define K 1 \\\n  + 2\n'
    assert directives_only(text) == "\n\n#if A /* a\n b */ || B\n\n# define K 1 \\\n  + 2\n"


def test_an_empty_text_and_one_without_directives() -> None:
    assert directives_only("") == ""
    assert directives_only("int main(void) { return 0; }\n\n") == "\n\n"


@pytest.mark.parametrize(
    "text",
    [
        'const char *s = R"(\n#define Z 1\n)";\n',  # a raw string in GNU C and C++, not in ISO C
        "int n = 1'000;\n",  # a digit separator in C23 and C++14, a character literal before
        'char *s = "what??/\n";\n',  # a trigraph, read only under a strict -std
        'const char *s = R\\\n"(x)";\n',  # a raw string's prefix spliced to its quote
        '_Pragma("push_macro(\\"X\\")")\n#undef X\n',  # code that may bring a macro back
    ],
    ids=["raw string", "digit separator", "trigraph", "spliced raw string", "push_macro"],
)
def test_where_the_standard_or_code_decides_there_is_no_answer(text: str) -> None:
    assert directives_only(text) is None


def test_the_raw_string_lexes_differently_by_standard(tmp_path: Path) -> None:
    """Why directives_only leaves raw strings to the caller: GNU C reads one, ISO C does not."""
    text = 'const char *s = R"(\n#define Z 1\n)";\n#ifdef Z\nint z;\n#endif\n'
    assert left_out(tmp_path / "r.c", text, "-std=gnu17") == [(4, 6)]
    assert left_out(tmp_path / "r.c", text, "-std=c17") == []


def test_code_that_saves_a_macro_changes_what_is_left_out(tmp_path: Path) -> None:
    """Why push_macro gives no answer: the _Pragma in code brings X back, and without it X stays undefined."""
    push, pop = '_Pragma("push_macro(\\"X\\")")', '_Pragma("pop_macro(\\"X\\")")'
    text = f"#define X 1\n{push}\n#undef X\n{pop}\n#ifdef X\nint x;\n#endif\n"
    assert left_out(tmp_path / "p.c", text) == []
    assert left_out(tmp_path / "p.c", text.replace(push, "").replace(pop, "")) == [(5, 7)]


FRAGMENTS = st.sampled_from(
    [
        "\n",
        "#if 0\n",
        "#ifdef A\n",
        "#ifndef A\n",
        "#elif 1\n",
        "#else\n",
        "#endif\n",
        "#define A 1\n",
        "#undef A\n",
        "  #  if defined(A) \\\n && 1\n",
        "int x;",
        "/* c */",
        "/* a\n b */",
        "// line\n",
        "// spliced \\\n",
        '"s # /* t"',
        "'\"'",
        "'\\''",
        '"unterminated',
        "'",
        "\\\n",
        " # ",
        "#",
        "x = 1.5e+3;",
        "\r\n",
        "\r",
        "\n\r",
        "\\\n\r",
        "\\ \t\n",
        "/* x *\\\n/",
        "*/",
        "/*",
        '"a\\"b"',
        "0x1p-3",
        "%:if 0\n",
        "#include <x//y.h>\n",
        "don't",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FRAGMENTS, max_size=24))
def test_any_mix_of_directives_comments_and_literals_leaves_out_what_clang_does(tmp_path: Path, parts) -> None:
    text = "".join(parts)
    assume(directives_only(text) is not None)  # 0x1p-3'0x1p-3 has a digit separator
    same_as_clang(tmp_path / "m.c", text)


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_any_text_gives_its_lines_or_no_answer(text: str) -> None:
    kept = directives_only(text)
    if kept is not None:  # every line where it was, nothing added
        assert line_breaks(kept) == line_breaks(text)
        assert len(kept) <= len(text)
