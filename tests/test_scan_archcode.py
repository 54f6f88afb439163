"""Whether a file holds architecture-specific code the source ABI reads
(commands/scan/archcode.py), checked against clang's own lexer and
preprocessor: which mentions are comments, which lines an #if left out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portkit.commands.scan import engine
from portkit.commands.scan.archcode import ARCH_SPECIFIC, mentions, read_as_code
from portkit.commands.scan.engine import ScanJob, scan_unit
from portkit.commands.scan.models import probe_pair, resolve_abi
from portkit.commands.scan.rules import RULES
from portkit.core.abis import parse_abi
from portkit.cparse.libclang import cindex, skipped_lines
from portkit.cparse.parse import parse

HOME = parse_abi("arm")  # defines __arm__, not __x86_64__ or __aarch64__
CONDITION = re.compile(r"#\s*(?:if|ifdef|ifndef|elif)\b")


def clang_reads(path: Path, text: str) -> tuple[list[tuple[int, int]], list[bool]]:
    """What clang makes of text for HOME: the lines its preprocessor left out,
    and for each ARCH_SPECIFIC match whether a compiler reads it as code (not
    in a comment token of clang's lexer, not in an #if condition, not in a
    left-out region)."""
    path.write_text(text)
    (path.parent / "arm_acle_local.h").write_text("")
    tu, _ = parse(str(path), HOME, ["-w"], None, bodies=False, preprocessor_record=True)
    assert tu is not None
    ci = cindex()
    left_out = skipped_lines(ci, tu, str(path))
    data = text.encode()
    everything = ci.SourceRange.from_locations(tu.get_location(str(path), 0), tu.get_location(str(path), len(data)))
    comments = [
        (t.extent.start.offset, t.extent.end.offset)
        for t in tu.get_tokens(extent=everything)
        if t.kind == ci.TokenKind.COMMENT
    ]
    logical_starts = [0] + [m.end() for m in re.finditer(r"(?<!\\)\n", text)]
    read = []
    for match in ARCH_SPECIFIC.finditer(text):
        at = match.start()
        line = text.count("\n", 0, at) + 1
        start = max(s for s in logical_starts if s <= at)
        in_comment = any(a <= at < b for a, b in comments)
        condition = CONDITION.match(text, start) is not None  # no generated line opens with a comment
        left = any(first <= line <= last for first, last in left_out)
        read.append(not (in_comment or condition or left))
    return left_out, read


CODE = st.sampled_from(
    [
        'asm volatile("dmb ish");',
        '__asm__("nop");',
        "int x = __builtin_ia32_rdtsc();",
        "int y = 'a';",
        'const char *s = "/* not a comment";',
        'const char *t = "asm in a string";',
        '#include "arm_acle_local.h"',  # an empty header beside the file
        "x = a / b;",
        "int z;",
        "/* asm() is needed */",
        "// uses __asm for speed",
        "/* a comment\n   on two lines, asm */",
        "/* '\"' */",
        "char q = '\"';",
    ]
)
CONDITIONS = st.sampled_from(
    [
        "#if defined(__arm__)",
        "#if defined(__x86_64__)",
        "#ifdef __aarch64__",
        "#ifndef __arm__",
        "#if 0",
        "#if defined(__i386__) || \\\n    defined(__arm__)",
        "#if defined(_MSC_VER) /* intrin.h */",
    ]
)


def _blocks(depth: int) -> st.SearchStrategy[str]:
    line = CODE.map(lambda c: c + "\n")
    if depth == 0:
        return st.lists(line, max_size=4).map("".join)
    nested = _blocks(depth - 1)
    conditional = st.tuples(CONDITIONS, nested, st.none() | nested).map(
        lambda c: f"{c[0]}\n{c[1]}" + (f"#else\n{c[2]}" if c[2] is not None else "") + "#endif\n"
    )
    return st.lists(line | conditional, max_size=4).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_blocks(2))
def test_read_as_code_agrees_with_clangs_lexer_and_preprocessor(tmp_path: Path, text: str) -> None:
    assert mentions(text) == [m.start() for m in ARCH_SPECIFIC.finditer(text)]
    left_out, read = clang_reads(tmp_path / "home.c", text)
    assert read_as_code(text, mentions(text), left_out) == any(read)


PIECES = st.sampled_from([*"asm_rintrh.b_/*\"'\\\n#if 0()", "__asm", "arm_neon", "intrin.h", "__builtin_arm_"])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(PIECES).map("".join))
def test_mentions_are_the_patterns_matches_in_any_text(text: str) -> None:
    found = mentions(text)
    assert found == [m.start() for m in ARCH_SPECIFIC.finditer(text)]
    read_as_code(text, found, [(1, 2), (4, 4)])  # any text: an answer, no exception


ONLY_ELSEWHERE = """/* hwtime.h: the cycle counter. asm() is needed where there is one. */
#include <stdint.h>
#if defined(__i386__) || defined(__arm__)
# define LITTLE_ENDIAN_GUESS 1
#endif
#if defined(__x86_64__)
static inline uint64_t cycles(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}
#elif defined(_MSC_VER)
#  include <intrin.h>
#else
static inline uint64_t cycles(void) { return 0; }
#endif
"""


def scanned(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The rules of the findings of text's scan from 32-bit ARM to AArch64,
    and the parses it made ("target", "home declarations", "home whole")."""
    path = tmp_path / "unit.c"
    path.write_text(text)
    pair = probe_pair(resolve_abi("arm", "--from"), resolve_abi("aarch64", "--to"), None)
    made: list[str] = []

    def parse_recorded(file, abi, *args, bodies=False, **kwargs):
        made.append("target" if abi == pair.target.abi else f"home {'whole' if bodies else 'declarations'}")
        return parse(file, abi, *args, bodies=bodies, **kwargs)

    monkeypatch.setattr(engine, "parse", parse_recorded)
    job = ScanJob(path, text, (), pair, None, frozenset(rule.id for rule in RULES))
    return sorted(f.rule for f in scan_unit(job).findings), sorted(made)


def test_no_whole_second_parse_for_assembly_the_source_abi_leaves_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, made = scanned(tmp_path, ONLY_ELSEWHERE, monkeypatch)
    assert rules == [] and made == ["home declarations", "target"]


def test_assembly_the_source_abi_reads_is_parsed_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, made = scanned(tmp_path, ONLY_ELSEWHERE.replace("defined(__x86_64__)", "defined(__arm__)"), monkeypatch)
    assert rules == ["PK801"] and made == ["home declarations", "home whole", "target"]


def test_a_file_that_never_mentions_assembly_is_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, made = scanned(tmp_path, "int add(int a, int b) { return a + b; }\n", monkeypatch)
    assert rules == [] and made == ["target"]
