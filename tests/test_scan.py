"""`portkit scan` end to end: the IVI porting field report's code, the interface (text, JSON,
SARIF, exit codes, compile databases, baselines), the rules page, and hostile
input (one warning line per bad file, never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_portkit, validate_sarif
from portkit.commands.scan.rules import RULES

# The field report's incorrect code (section 2), as a translation unit.
REPORT_INCORRECT = """#include <stdio.h>
#define N 16
int a[N];
int *p;
int addr;
void pointers(void)
{
    addr = (int) a;
    p = (int *) addr;
}
void difference(void *p, void *q)
{
    printf("num = %d\\n", q - p);
}
"""
REPORT_CORRECT = """#include <stdio.h>
#include <stdint.h>
#define N 16
int a[N];
int *p;
intptr_t addr;
void pointers(void)
{
    addr = (intptr_t) a;
    p = (int *) addr;
}
void difference(void *p, void *q)
{
    printf("num = %ld\\n", q - p);
}
"""


def scan(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("scan", *args, cwd=cwd)


def scan_json(*args: str | Path, cwd: Path | None = None) -> tuple[int, dict]:
    proc = scan(*args, "--format", "json", cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def found(document: dict) -> list[tuple[int, str]]:
    return [(f["location"]["line"], f["rule"]) for f in document["findings"]]


def test_the_field_reports_incorrect_code(tmp_path: Path) -> None:
    source = tmp_path / "report.c"
    source.write_text(REPORT_INCORRECT)
    code, document = scan_json(source)
    assert code == 1
    assert found(document) == [(8, "PK101"), (9, "PK102"), (13, "PK201")]
    assert document["models"]["from"]["data_model"] == "ILP32" and document["models"]["to"]["data_model"] == "LP64"
    message = document["findings"][0]["message"]
    assert "'int'" in message and "ILP32 (arm)" in message and "LP64 (aarch64)" in message


def test_the_field_reports_correct_code_is_quiet(tmp_path: Path) -> None:
    source = tmp_path / "report.c"
    source.write_text(REPORT_CORRECT)
    code, document = scan_json(source)
    assert (code, document["findings"]) == (0, [])


def test_text_shows_the_line_the_caret_and_the_fix(tmp_path: Path) -> None:
    (tmp_path / "report.c").write_text(REPORT_INCORRECT)
    out = scan("report.c", cwd=tmp_path).stdout
    assert "report.c:8:12: error [PK101] pointer 'int *'" in out
    assert "    8 |     addr = (int) a;" in out
    assert "fix: Keep addresses in intptr_t or uintptr_t" in out


def test_sarif_is_valid(tmp_path: Path) -> None:
    (tmp_path / "report.c").write_text(REPORT_INCORRECT)
    proc = scan("report.c", "--format", "sarif", cwd=tmp_path)
    document = json.loads(proc.stdout)
    validate_sarif(document)
    results = document["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["PK101", "PK102", "PK201"]


def test_llp64_keeps_long_and_pointer_apart(tmp_path: Path) -> None:
    source = tmp_path / "win.c"
    source.write_text("void *p;\nlong keep(void) { return (long) p; }\nint cut(void) { return (int) p; }\n")
    _, lp64 = scan_json(source)
    _, llp64 = scan_json(source, "--to", "LLP64")
    assert found(lp64) == [(3, "PK101")]
    assert found(llp64) == [(2, "PK101"), (3, "PK101")]
    assert "LLP64 (mingw64)" in llp64["findings"][0]["message"]


@pytest.mark.parametrize(
    ("source_abi", "target_abi"), [("powerpc", "powerpc64le"), ("mips", "riscv64"), ("arm", "s390x")]
)
def test_the_newer_abis_as_either_end(tmp_path: Path, source_abi: str, target_abi: str) -> None:
    """Big-endian 32-bit PowerPC and MIPS to the 64-bit ABIs: the field report's findings, named by their ABIs."""
    source = tmp_path / "report.c"
    source.write_text(REPORT_INCORRECT)
    code, document = scan_json(source, "--from", source_abi, "--to", target_abi)
    assert code == 1
    assert found(document) == [(8, "PK101"), (9, "PK102"), (13, "PK201")]
    assert f"4 bytes in ILP32 ({source_abi}), 8 in LP64 ({target_abi})" in document["findings"][0]["message"]


def test_fail_on_select_ignore_and_suppression(tmp_path: Path) -> None:
    source = tmp_path / "report.c"
    source.write_text(REPORT_INCORRECT.replace("p = (int *) addr;", "p = (int *) addr; /* portkit: ignore PK102 */"))
    _, document = scan_json(source)
    assert [r for _, r in found(document)] == ["PK101", "PK201"] and document["suppressed"] == 1
    assert scan(source, "--fail-on", "never").returncode == 0
    assert scan(source, "--select", "PK2", "--fail-on", "error").returncode == 0  # PK201 is a warning
    _, only = scan_json(source, "--ignore", "PK1")
    assert [r for _, r in found(only)] == ["PK201"]


def test_a_baseline_shows_only_what_is_new(tmp_path: Path) -> None:
    source = tmp_path / "report.c"
    source.write_text(REPORT_INCORRECT)
    baseline = tmp_path / "known.json"
    baseline.write_text(scan(source, "--format", "json").stdout)
    source.write_text("/* a line more */\n" + REPORT_INCORRECT + "long g(void *v) { return (int) v; }\n")
    _, document = scan_json(source, "--baseline", baseline)
    assert found(document) == [(16, "PK101")] and document["baselined"] == 3


def test_directories_and_compile_databases(tmp_path: Path) -> None:
    (tmp_path / "src" / "inc").mkdir(parents=True)
    (tmp_path / "src" / "inc" / "cfg.h").write_text("typedef long word_t;\n")
    (tmp_path / "src" / "a.c").write_text('#include "cfg.h"\nint narrow(word_t w) { return w; }\n')
    (tmp_path / "build").mkdir()
    entry = {"directory": str(tmp_path / "src"), "arguments": ["cc", "-Iinc", "-c", "a.c"], "file": "a.c"}
    (tmp_path / "build" / "compile_commands.json").write_text(json.dumps([entry]))
    _, document = scan_json("-p", "build", cwd=tmp_path)
    assert found(document) == [(2, "PK301")] and document["scanned"] == 1
    _, by_dir = scan_json("src", "-I", "src/inc", cwd=tmp_path)
    assert found(by_dir) == [(2, "PK301")]


def test_a_finding_in_a_shared_header_is_reported_once(tmp_path: Path) -> None:
    (tmp_path / "common.h").write_text("static inline int cut(void *p) { return (int) p; }\n")
    for name in ("a.c", "b.c"):
        (tmp_path / name).write_text('#include "common.h"\n')
    _, document = scan_json(tmp_path)
    assert found(document) == [(1, "PK101")] and document["scanned"] == 2


def test_list_rules() -> None:
    document = json.loads(scan("--list-rules", "--format", "json").stdout)
    ids = [r["id"] for r in document["rules"]]
    assert ids == sorted(ids) and len(ids) >= 19 and all(r["fix"] and r["summary"] for r in document["rules"])


HOSTILE = {
    "huge.c": "int x = " + "+".join(["1"] * 200_000) + ";\nint cut(void *p) { return (int) p; }\n",
    "deep.c": "int f(void) { return " + "(" * 5000 + "1" + ")" * 5000 + "; }\n",
    "longline.c": 'char s[] = "' + "x" * 1_000_000 + '";\n',
    "unterminated.c": "int a; /* never closed\nint b;\n",
    "garbage.c": "struct { ]]] ;; int long long long x;\n",
}


def test_hostile_input_is_one_warning_line_each_and_the_rest_is_scanned(tmp_path: Path) -> None:
    for name, text in HOSTILE.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "utf16.c").write_bytes("int cut(void *p) { return (int) p; }\n".encode("utf-16"))
    (tmp_path / "binary.c").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 8)
    (tmp_path / "empty.c").write_bytes(b"")
    proc = scan(tmp_path, "--format", "json")
    assert proc.returncode == 3 and "Traceback" not in proc.stderr  # the files not read: the scan cannot vouch
    document = json.loads(proc.stdout)
    assert (document["findings"][0]["location"]["path"], document["findings"][0]["rule"]) == (
        str(tmp_path / "huge.c"),
        "PK101",
    )
    *warnings, what_to_do = proc.stderr.splitlines()
    assert all(line.startswith("portkit: warning: ") for line in warnings)
    assert what_to_do.startswith("portkit: error: scan: 5 of 8 files could not be read to the end")
    for bad in ("binary.c: binary file", "utf16.c"):
        assert sum(bad in line for line in warnings) == 1, (bad, warnings)
    # Nothing in an empty file is C, and nothing in it is wrong: it is scanned like any other.
    assert not any("empty.c" in line for line in warnings)
    # What clang stopped on (nesting past its limit), could not make sense of or never read is not checked completely.
    incomplete = {Path(item["path"]).name: item["reason"] for item in document["incomplete"]}
    assert incomplete.keys() == {"binary.c", "utf16.c", "deep.c", "unterminated.c", "garbage.c"}
    assert incomplete["binary.c"] == "binary file, not C"


def test_nothing_scannable_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "binary.c").write_bytes(b"\x00\x01\x02")
    proc = scan(tmp_path / "binary.c")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"portkit: error: scan: no file could be scanned: {tmp_path / 'binary.c'} (binary file, not C)"
    )
    assert scan(tmp_path / "missing").returncode == 2


@pytest.mark.parametrize("args", [["--from", "VAX"], ["--to", "ILP32"], ["--select", "PK999"], ["-j", "0"]])
def test_bad_options_are_one_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a.c").write_text("int x;\n")
    proc = scan(tmp_path / "a.c", *args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_progress_on_a_terminal_and_none_when_piped(tmp_path: Path) -> None:
    """Files done / total and the current file on a terminal's stderr; nothing extra on a pipe."""
    import os
    import pty

    for name in ("a.c", "b.c"):
        (tmp_path / name).write_text("int x;\n")
    leader, follower = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "portkit", "scan", str(tmp_path), "-o", str(tmp_path / "out.txt")],
        stderr=follower,
        stdout=subprocess.DEVNULL,
        timeout=300,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal's other side is closed: all is read
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"scan: 2/2 files" in seen
    piped = scan(tmp_path)
    assert piped.stderr == ""


def test_a_broken_shared_header_is_one_warning(tmp_path: Path) -> None:
    (tmp_path / "config.h").write_text('#include "missing-config.h"\n')
    for name in ("a.c", "b.c", "c.c"):
        (tmp_path / name).write_text('#include "config.h"\nint x;\n')
    proc = scan(tmp_path)
    assert proc.stderr.count("'missing-config.h' file not found") == 1, proc.stderr


def test_a_narrowing_inside_a_macro_names_the_narrowed_value(tmp_path: Path) -> None:
    # Inside a macro's expansion clang's range is the whole invocation: the
    # message must name strlen's size_t, not another node found there (the
    # pointer argument), and a value that is one argument of several is found.
    source = tmp_path / "macros.c"
    source.write_text(
        "#include <string.h>\n"
        "#define CHECK(cond, v) ((cond) ? (v) : 0)\n"
        "#define LEN_OR_ZERO(p) ((p) ? strlen(p) : 0)\n"
        "int count(const char *name, int flag)\n"
        "{\n"
        "    int n = LEN_OR_ZERO(name);\n"
        "    int m = CHECK(flag > 1, strlen(name));\n"
        "    return n + m;\n"
        "}\n"
    )
    _, document = scan_json(source)
    assert found(document) == [(6, "PK301"), (7, "PK301")]
    narrowed = "'unsigned long' (4 bytes in ILP32 (arm), 8 in LP64 (aarch64)) narrowed to 'int'"
    assert all(f["message"].startswith(narrowed) for f in document["findings"])


@pytest.mark.parametrize(
    ("name", "content"),
    [("README.md", b"# notes\n"), ("logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64)), ("tool.py", b"print(1)\n")],
)
def test_a_named_file_that_is_not_c_says_so(tmp_path: Path, name: str, content: bytes) -> None:
    (tmp_path / name).write_bytes(content)
    proc = scan(name, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (
        f"portkit: error: scan: nothing to scan: {name}: not C or C++ source "
        "(named .c, .cc, .cpp, .cxx, .c++, .C, .h, .hh, .hpp, .hxx, .h++, .H)\n"
    )


def test_a_file_that_is_not_c_beside_others_is_an_error_and_the_report_stands(tmp_path: Path) -> None:
    (tmp_path / "cut.c").write_text("int cut(void *p) { return (int) p; }\n")
    (tmp_path / "README.md").write_text("# notes\n")
    proc = scan("cut.c", "README.md", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 2  # a usage error outweighs the findings
    assert proc.stderr.startswith("portkit: error: README.md: not C or C++ source (")
    document = json.loads(proc.stdout)
    assert [f["rule"] for f in document["findings"]] == ["PK101"]
    assert document["inputs"] == 1 and document["problems"][0].startswith("README.md: not C or C++ source")


def test_an_empty_file_is_scanned_and_clean(tmp_path: Path) -> None:
    (tmp_path / "empty.c").write_bytes(b"")
    proc = scan("empty.c", cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == "scanned 1 of 1 file for ILP32 (arm) -> LP64 (aarch64)\n\nno findings\n"


def test_a_compile_databases_other_languages_are_left_out(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int x;\n")
    (tmp_path / "start.S").write_text(".globl _start\n_start:\n")
    entries = [
        {"directory": str(tmp_path), "arguments": ["cc", "-c", name], "file": name} for name in ("a.c", "start.S")
    ]
    (tmp_path / "compile_commands.json").write_text(json.dumps(entries))
    code, document = scan_json("-p", ".", cwd=tmp_path)
    assert (code, document["inputs"], document["scanned"]) == (0, 1, 1)


def test_counts_in_the_singular(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int a = ;\n" * 4)  # four errors: three shown, one counted
    proc = scan("a.c", cwd=tmp_path)
    assert proc.stdout.startswith("scanned 0 of 1 file completely for ")
    assert proc.stderr.splitlines()[-2] == "portkit: warning: a.c: 1 more error"
    assert proc.stderr.splitlines()[-1].startswith("portkit: error: scan: 1 of 1 file could not be read to the end")


def test_nothing_to_scan_counts_the_other_problems(tmp_path: Path) -> None:
    proc = scan("a.md", "b.md", cwd=tmp_path)
    assert proc.stderr == (
        "portkit: error: scan: nothing to scan: a.md: no such file or directory (and 1 more problem)\n"
    )


def test_a_directory_for_output_is_one_line(tmp_path: Path) -> None:
    proc = scan(ROOT / "examples" / "legacy32", "-o", tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == f"portkit: error: -o {tmp_path}: is a directory (give a file name)\n"


def test_errors_name_the_command_once() -> None:
    """cli adds `portkit: error: `; a message of scan's own says `scan: `, never `portkit scan: `."""
    proc = scan()
    assert proc.stderr == (
        "portkit: error: scan: nothing to scan: name files or directories to scan, or -p a build directory\n"
    )


LONG_LINES = (
    "#include <stdio.h>\n"
    "void report(const char *name, long count, long total) "
    '{ printf("%s: %d of %d items were processed so far\\n", name, count, total); }\n'
    "int cut(void *p) { return (int) p; }\n"
)


def test_on_an_80_column_terminal_every_line_fits(tmp_path: Path) -> None:
    from terminal import run_on_terminal

    (tmp_path / "long.c").write_text(LONG_LINES)
    (tmp_path / "config.c").write_text('#include "config.h"\n' + LONG_LINES)
    screen = run_on_terminal(["scan", "long.c", "config.c", "--select", "PK2"], columns=80, cwd=tmp_path)
    assert screen.returncode == 3
    lines = screen.lines
    assert [line for line in lines if len(line) > 80] == []
    assert lines[0].startswith("portkit: warning: config.c:1: 'config.h' file not found")
    # The quoted line is cut around the caret, which stays under the argument it marks.
    quoted = [n for n, line in enumerate(lines) if line.startswith("    2 | ")]
    assert len(quoted) == 2
    for n in quoted:
        source, caret = lines[n], lines[n + 1]
        assert "..." in source
        assert source[caret.index("^") :].startswith(("count", "total"))
    piped = scan("long.c", "--select", "PK2", cwd=tmp_path).stdout
    assert f"    2 | {LONG_LINES.splitlines()[1]}" in piped.splitlines()  # whole in a pipe


def test_the_example_on_an_80_column_terminal(tmp_path: Path) -> None:
    from terminal import run_on_terminal

    screen = run_on_terminal(["scan", "examples/legacy32/src/legacy.c"], columns=80, cwd=ROOT)
    assert screen.returncode == 1
    assert [line for line in screen.lines if len(line) > 80] == []


@pytest.mark.parametrize("args", [["--list-rules"], ["--help"]])
def test_rules_and_help_fit_80_columns(args: list[str]) -> None:
    from terminal import run_on_terminal

    screen = run_on_terminal(["scan", *args], columns=80)
    assert screen.returncode == 0
    assert [line for line in screen.lines if len(line) > 80] == []


def test_the_rules_list_folds_its_last_column_on_a_terminal_only() -> None:
    from terminal import run_on_terminal

    lines = run_on_terminal(["scan", "--list-rules"], columns=80).lines
    first = lines.index(next(line for line in lines if line.startswith("PK101")))
    finds = lines[0].index("finds")
    assert lines[first + 1].startswith(" " * finds) and lines[first + 1][finds] != " "  # folded under its column
    piped = scan("--list-rules").stdout.splitlines()
    assert len(piped) == 1 + len(RULES) and all(line.startswith("PK") for line in piped[1:])  # one line per rule


def test_a_build_directory_without_a_database_says_how_to_make_one(tmp_path: Path) -> None:
    """The help's `portkit scan -p build/` on a build that never wrote compile_commands.json."""
    (tmp_path / "build").mkdir()
    proc = scan("-p", "build/", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (
        "portkit: error: -p build/compile_commands.json: no such file (a build directory with compile_commands.json, "
        "or the file) (hint: CMake writes it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Meson always; "
        "for make: bear -- make)\n"
    )


def test_a_sentinel_is_read_from_the_function_not_from_its_leading_macro(tmp_path: Path) -> None:
    # libclang tokenizes a declaration that starts with a macro from the
    # macro's #define on: the comment's word made count() a sentinel function
    source = tmp_path / "lists.c"
    source.write_text(
        "#define API static\n"
        "/* the functions below: one ends its list with a sentinel, one does not */\n"
        "API int count(const char *first, ...) { return first != 0; }\n"
        "API __attribute__((sentinel)) int ended(const char *first, ...) { return first != 0; }\n"
        'int counted(void) { return count("a", 0); }\n'
        'int terminated(void) { return ended("a", 0); }\n'
    )
    _, document = scan_json(source, "--no-cache")
    assert found(document) == [(6, "PK703")]
