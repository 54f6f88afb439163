"""`portkit scan` where real projects showed false alarms or missed code
(issue 18): a file a build compiles several ways, findings made by a macro's
body, round trips that change nothing. The labelled corpus
(test_scan_corpus.py) holds each class as a fixture; these tests hold the
interface: what is counted, where a finding points, what its message says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_scan import scan, scan_json

# A library built for 8- and 16-bit characters from one source (as expat's
# Debian build does with -DXML_UNICODE): the 16-bit code narrows a size_t.
TWO_WAYS = """#include <stddef.h>
#include <string.h>
#ifdef WIDE_CHARS
typedef unsigned short char_t;
int text_units(const char_t *s, size_t n) { return n; }
#else
typedef char char_t;
int text_units(const char_t *s, size_t n) { return (int) strnlen(s, 64); }
#endif
int cut(void *p) { return (int) p; }
"""


def database(tmp_path: Path, *commands: list[str]) -> Path:
    entries = [{"directory": str(tmp_path), "file": "text.c", "arguments": [*c, "-c", "text.c"]} for c in commands]
    (tmp_path / "compile_commands.json").write_text(json.dumps(entries))
    return tmp_path


def test_each_way_a_file_is_compiled_is_scanned_and_a_finding_is_reported_once(tmp_path: Path) -> None:
    (tmp_path / "text.c").write_text(TWO_WAYS)
    build = database(tmp_path, ["cc", "-O2"], ["cc", "-O2", "-DWIDE_CHARS"])
    code, document = scan_json("-p", build, cwd=tmp_path)
    assert code == 1
    assert sorted((f["location"]["line"], f["rule"]) for f in document["findings"]) == [(5, "PK301"), (10, "PK101")]
    assert (document["inputs"], document["compile_commands"], document["scanned"]) == (1, 2, 1)
    head = scan("-p", build, cwd=tmp_path).stdout.splitlines()[0]
    assert head == "scanned 1 of 1 file (2 compile commands) for ILP32 (arm) -> LP64 (aarch64)"


def test_the_first_way_alone_misses_the_other_ways_code(tmp_path: Path) -> None:
    (tmp_path / "text.c").write_text(TWO_WAYS)
    build = database(tmp_path, ["cc", "-O2"])
    _, document = scan_json("-p", build, cwd=tmp_path)
    assert [f["location"]["line"] for f in document["findings"]] == [10]


def test_ways_that_read_the_same_code_are_scanned_once(tmp_path: Path) -> None:
    """libtool's static and shared objects differ in -fPIC -DPIC, optimisation and warnings only."""
    (tmp_path / "text.c").write_text(TWO_WAYS)
    build = database(tmp_path, ["cc", "-O2", "-Wall"], ["cc", "-O0", "-g", "-fPIC", "-DPIC"])
    _, document = scan_json("-p", build, cwd=tmp_path)
    assert document["compile_commands"] == 1


def test_include_paths_are_told_apart_by_where_they_lead(tmp_path: Path) -> None:
    """Two build directories with a config.h each (a narrow and a wide build) are two ways."""
    for name, value in (("narrow", "0"), ("wide", "1")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.h").write_text(f"#define WIDE_CHARS_ON {value}\n")
    (tmp_path / "text.c").write_text(
        '#include "config.h"\n' + TWO_WAYS.replace("#ifdef WIDE_CHARS", "#if WIDE_CHARS_ON")
    )
    entries = [
        {"directory": str(tmp_path / name), "file": str(tmp_path / "text.c"), "arguments": ["cc", "-I.", "-c", "x"]}
        for name in ("narrow", "wide")
    ]
    (tmp_path / "compile_commands.json").write_text(json.dumps(entries))
    _, document = scan_json("-p", tmp_path, cwd=tmp_path)
    assert document["compile_commands"] == 2
    assert sorted(f["location"]["line"] for f in document["findings"]) == [6, 11]


# The narrowing is written in the macro's body: one finding at the #define.
MACRO = """#include <stddef.h>
struct span { int start, end; };
#define ADVANCE(sp, n) \\
    do { (sp)->start = (sp)->end; \\
         (sp)->end = (sp)->start + (n); } while (0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
void step(struct span *sp, size_t len, size_t cap)
{
    ADVANCE(sp, len);
    ADVANCE(sp, len + 1);
    ADVANCE(sp, 4);
    int room = MIN(len, cap);
    (void) room;
}
"""


def test_a_finding_made_by_a_macros_body_is_one_finding_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "span.c").write_text(MACRO)
    _, document = scan_json("span.c", cwd=tmp_path)
    found = [(f["location"]["line"], f["rule"], f["message"]) for f in document["findings"]]
    assert [(line, rule) for line, rule, _ in found] == [(5, "PK301"), (12, "PK301")]
    assert found[0][2].endswith("(in macro ADVANCE, expanded 2 times (first at span.c:9))")
    assert "in macro" not in found[1][2]  # MIN passes the value through: it is narrowed where it is stored
    location = document["findings"][0]["location"]
    assert (location["column"], location["end_column"]) == (11, 38)  # `sp)->end = (sp)->start + (n`


def test_a_macro_used_once_names_its_use(tmp_path: Path) -> None:
    (tmp_path / "span.c").write_text(MACRO.replace("    ADVANCE(sp, len + 1);\n", ""))
    _, document = scan_json("span.c", cwd=tmp_path)
    assert document["findings"][0]["message"].endswith("(in macro ADVANCE, expanded once, at span.c:9)")


def test_a_macro_in_a_shared_header_is_one_finding_for_every_file(tmp_path: Path) -> None:
    header = "\n".join(MACRO.splitlines()[1:6]) + "\n"
    (tmp_path / "span.h").write_text("#include <stddef.h>\n" + header)
    for name in ("a", "b"):
        (tmp_path / f"{name}.c").write_text(
            f'#include "span.h"\nvoid {name}(struct span *s, size_t n) {{ ADVANCE(s, n); }}\n'
        )
    _, document = scan_json("a.c", "b.c", cwd=tmp_path)
    (finding,) = document["findings"]
    assert finding["location"]["path"] == "span.h"
    assert finding["message"].endswith("(in macro ADVANCE, expanded 2 times (first at a.c:2))")


def test_a_suppression_comment_at_the_define_hides_every_use(tmp_path: Path) -> None:
    text = MACRO.replace(
        "(sp)->end = (sp)->start + (n); } while (0)",
        "(sp)->end = (sp)->start + (n); } while (0) /* portkit: ignore PK301 */",
    )
    (tmp_path / "span.c").write_text(text)
    _, document = scan_json("span.c", cwd=tmp_path)
    assert [f["location"]["line"] for f in document["findings"]] == [12]


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("int f(int n) { return n * sizeof(long) + 4; }", []),  # 32-bit values through 64 bits and back
        ("int f(size_t n) { return n * sizeof(long); }", ["PK301"]),  # a 64-bit value cut
        ("int f(int fd, char *b) { return read(fd, b, 512); }", []),  # at most 512
        ("int f(int fd, char *b, size_t n) { return read(fd, b, n); }", ["PK301"]),
        ("size_t f(unsigned char *h) { return h[0] * 256 + h[1]; }", []),  # never reaches 2^31
        ("size_t f(int w, int h) { return w * h * 4; }", ["PK602"]),
        ("long f(int w, int h) { return w * h * 4; }", []),  # a signed long keeps the negative int
        ("unsigned long f(unsigned long crc) { return crc ^ 0xFFFFFFFF; }", []),  # a CRC-32's complement
        ("unsigned long f(unsigned long v) { return v & 0x7FFFFFFF; }", ["PK403"]),
        ("int f(void *p) { return ((unsigned)(size_t)p & 7) == 0; }", []),  # an alignment test
        ("unsigned f(void *p) { return (unsigned)(size_t)p >> 4; }", ["PK101"]),
    ],
)
def test_what_changes_between_the_models_and_what_does_not(tmp_path: Path, code: str, found: list[str]) -> None:
    (tmp_path / "f.c").write_text(f"#include <stddef.h>\n#include <unistd.h>\n{code}\n")
    _, document = scan_json("f.c", cwd=tmp_path)
    assert [f["rule"] for f in document["findings"]] == found
